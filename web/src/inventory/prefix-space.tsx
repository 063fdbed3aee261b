// A prefix's place in its address space, on its page (docs/ipam.md): its parent, the prefixes directly
// inside it, its utilisation, and the two questions an allocation asks: the next free child prefix of a
// length (and creating it: POST available-prefixes, which locks the parent so two never get the same
// block) and the next free addresses (a suggestion; recording one is an IPAM record).
import { useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";
import { navigate } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { cell } from "./list-page.tsx";
import { RefLink } from "./names.tsx";

interface Prefix {
  id: number;
  prefix: string;
  vrf_id: number | null;
  parent_id: number | null;
  status: string;
  utilisation: { used: string; total: string; percent: number };
}

const SHOWN = 100;

export function PrefixSpace({ id }: { id: string }) {
  const t = useT();
  const session = useSession();
  const canWrite = session.can("write:networks");
  const space = useLoad(async () => {
    const self = (await ok(anyApi.GET("/api/v1/prefixes/{prefix_id}", { params: { path: { prefix_id: id } } }))) as Prefix;
    const query: Record<string, string> = { within: self.prefix, limit: String(SHOWN) };
    if (self.vrf_id !== null) query.vrf_id = String(self.vrf_id);
    const [inside, parent] = await Promise.all([
      ok(anyApi.GET("/api/v1/prefixes", { params: { query } })) as Promise<{ items: Prefix[]; total: number }>,
      self.parent_id === null
        ? Promise.resolve(undefined)
        : (ok(anyApi.GET("/api/v1/prefixes/{prefix_id}", { params: { path: { prefix_id: String(self.parent_id) } } })) as Promise<Prefix>),
    ]);
    // Those directly inside: their closest container is this prefix (the same VRF, or the global table).
    const children = inside.items.filter((p) => p.parent_id === self.id && p.vrf_id === self.vrf_id);
    return { self, parent, children };
  }, [id]);
  const [length, setLength] = useState("");
  const [free, setFree] = useState<string[] | undefined>();
  const [ips, setIps] = useState<string[] | undefined>();
  const find = useSubmit();
  const allocate = useSubmit();
  const lookIps = useSubmit();

  if (space.error !== undefined) return <Notice kind="error">{messageOf(space.error)}</Notice>;
  const data = space.data;
  if (!data) return <p aria-busy="true">{t("common:loading")}</p>;
  const { self, parent, children } = data;

  const findFree = (ev: Event) => {
    ev.preventDefault();
    void find.run(async () => {
      setFree(undefined);
      const answer = (await ok(
        anyApi.GET("/api/v1/prefixes/{prefix_id}/available-prefixes", {
          params: { path: { prefix_id: id }, query: { length: Number(length), limit: "5" } },
        }),
      )) as { items: { prefix: string }[] };
      setFree(answer.items.map((i) => i.prefix));
    });
  };
  const createFree = () =>
    void allocate.run(async () => {
      const made = (await ok(
        anyApi.POST("/api/v1/prefixes/{prefix_id}/available-prefixes", {
          params: { path: { prefix_id: id } },
          body: { length: Number(length) },
        }),
      )) as { id: number };
      navigate(`/inventory/prefixes/${made.id}`);
    });
  const findIps = () =>
    void lookIps.run(async () => {
      const answer = (await ok(
        anyApi.GET("/api/v1/prefixes/{prefix_id}/available-ips", { params: { path: { prefix_id: id }, query: { limit: "5" } } }),
      )) as { items: string[] };
      setIps(answer.items);
    });

  return (
    <section class="prefix-space" aria-labelledby="prefix-space-title">
      <h2 id="prefix-space-title">{t("ipam-prefixes:space.title")}</h2>
      <dl class="fields">
        <div>
          <dt>{t("ipam-prefixes:space.parent")}</dt>
          <dd>{parent ? <RefLink group="prefixes" id={parent.id} name={parent.prefix} /> : t("ipam-prefixes:space.noParent")}</dd>
        </div>
        <div>
          <dt>{t("ipam-prefixes:field.utilisation")}</dt>
          <dd>
            <meter min={0} max={100} value={self.utilisation.percent} aria-label={t("ipam-prefixes:field.utilisation")} />{" "}
            <span data-testid="prefix-utilisation">{cell(self.utilisation)}</span>
          </dd>
        </div>
      </dl>
      <h3>{t("ipam-prefixes:space.children")}</h3>
      {children.length === 0 ? (
        <p class="empty">{t("ipam-prefixes:space.noChildren")}</p>
      ) : (
        <ul class="prefix-children" aria-label={t("ipam-prefixes:space.children")}>
          {children.map((c) => (
            <li key={c.id}>
              <RefLink group="prefixes" id={c.id} name={c.prefix} /> · {c.status} · {cell(c.utilisation)}
            </li>
          ))}
        </ul>
      )}
      <form class="inline-form" onSubmit={findFree} noValidate>
        <Field id="free-length" label={t("ipam-prefixes:space.length")} error={find.fields.length ?? allocate.fields.length}>
          {(a11y) => (
            <input
              {...a11y}
              type="text"
              inputMode="numeric"
              value={length}
              onInput={(ev) => setLength((ev.currentTarget as HTMLInputElement).value)}
            />
          )}
        </Field>
        <button type="submit" disabled={find.busy}>
          {t("ipam-prefixes:space.findFree")}
        </button>
        {canWrite && (
          <button type="button" disabled={allocate.busy} onClick={createFree}>
            {t("ipam-prefixes:space.createFree")}
          </button>
        )}
      </form>
      <Notice kind="error">{find.errorBesides(["length"]) ?? allocate.errorBesides(["length"])}</Notice>
      {free && (
        <p role="status">
          {free.length === 0 ? t("ipam-prefixes:space.noneFree") : t("ipam-prefixes:space.freeAre", { list: free.join(", ") })}
        </p>
      )}
      <p>
        <button type="button" disabled={lookIps.busy} onClick={findIps}>
          {t("ipam-prefixes:space.nextAddress")}
        </button>
      </p>
      <Notice kind="error">{lookIps.error}</Notice>
      {ips && (
        <p role="status">
          {ips.length === 0 ? t("ipam-prefixes:space.noAddress") : t("ipam-prefixes:space.addressesAre", { list: ips.join(", ") })}
        </p>
      )}
    </section>
  );
}
