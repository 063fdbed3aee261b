// Branding (GET /branding, POST /branding/import, the uploads, DELETE /branding/{asset_type}): the
// deployment's name and colours; the login page's logo and background and the favicon, with previews of
// what is stored. The server checks every upload (type by content, size); its 422 or 413 is shown by
// the file's input. Read-only for anyone but an administrator.
import { useEffect, useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice, TextInput } from "../components/field.tsx";
import { useLoad } from "../use-load.ts";
import { LoadError } from "./load-error.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

type Branding = paths["/api/v1/branding"]["get"]["responses"][200]["content"]["application/json"];
type Asset = "login-logo" | "login-bg" | "favicon";

const ASSETS: ReadonlyArray<{ type: Asset; label: string; hint: string; accept: string; path: (b: Branding) => string | null }> = [
  {
    type: "login-logo",
    label: i18nKey("settings:branding.logo"),
    hint: i18nKey("settings:branding.logo.hint"),
    accept: "image/png,image/jpeg",
    path: (b) => b.login_logo_path,
  },
  {
    type: "login-bg",
    label: i18nKey("settings:branding.background"),
    hint: i18nKey("settings:branding.background.hint"),
    accept: "image/png,image/jpeg",
    path: (b) => b.login_bg_path,
  },
  {
    type: "favicon",
    label: i18nKey("settings:branding.favicon"),
    hint: i18nKey("settings:branding.favicon.hint"),
    accept: "image/png,image/x-icon,.ico",
    path: (b) => b.favicon_path,
  },
];

/** Each asset's upload route; the typed body names the multipart field, the serializer sends the file itself. */
async function uploadFile(type: Asset, file: File): Promise<void> {
  const init = { body: { file: file.name }, bodySerializer: () => formOf(file) };
  if (type === "login-logo") await ok(api.POST("/api/v1/branding/upload-login-logo", init));
  else if (type === "login-bg") await ok(api.POST("/api/v1/branding/upload-login-bg", init));
  else await ok(api.POST("/api/v1/assets/branding/favicon", init));
}

export function BrandingSection() {
  const t = useT();
  const canEdit = useSession().can("admin:*");
  const branding = useLoad(() => ok(api.GET("/api/v1/branding")), []);
  const [name, setName] = useState("");
  const [primary, setPrimary] = useState("");
  const [accents, setAccents] = useState("");
  // Bumped after each upload so the previews load the new file (the stored name may not change).
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const b = branding.data;
    if (!b) return;
    setName(b.app_name);
    setPrimary(b.primary_color);
    setAccents(b.accent_colors.join(", "));
  }, [branding.data]);
  const save = useSubmit();
  const files = useSubmit();
  const [saved, setSaved] = useState<string | undefined>();
  const [uploaded, setUploaded] = useState<string | undefined>();
  // The asset the last upload or removal was for: its refusal is shown by that file's input.
  const [lastAsset, setLastAsset] = useState<Asset | undefined>();

  const send = (e: Event) => {
    e.preventDefault();
    setSaved(undefined);
    void save.run(async () => {
      const accentList = accents
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean);
      await ok(api.POST("/api/v1/branding/import", { body: { app_name: name, primary_color: primary.trim(), accent_colors: accentList } }));
      setSaved(t("settings:branding.saved"));
      branding.reload();
    });
  };

  const upload = (type: Asset, file: File) =>
    files.run(async () => {
      setUploaded(undefined);
      setLastAsset(type);
      await uploadFile(type, file);
      setUploaded(t("settings:branding.uploaded", { asset: t(ASSETS.find((a) => a.type === type)!.label) }));
      setVersion((v) => v + 1);
      branding.reload();
    });
  const remove = (type: Asset, label: string) =>
    confirm(t("settings:branding.confirmRemove", { asset: t(label) })) &&
    files.run(async () => {
      setUploaded(undefined);
      setLastAsset(type);
      await ok(api.DELETE("/api/v1/branding/{asset_type}", { params: { path: { asset_type: type } } }));
      branding.reload();
    });

  if (branding.error !== undefined) return <LoadError error={branding.error} what={t("settings:branding.what")} />;
  const b = branding.data;
  if (!b) return <p aria-busy="true">{t("common:loading")}</p>;
  return (
    <>
      <form class="card" onSubmit={send} noValidate aria-labelledby="branding-title">
        <h2 id="branding-title">{t("settings:branding.title")}</h2>
        {!canEdit && (
          <p class="meta">
            <span class="badge">{t("settings:readOnly")}</span> {t("settings:branding.adminOnly")}
          </p>
        )}
        <fieldset class="plain" disabled={!canEdit}>
          <TextInput
            id="branding-name"
            label={t("settings:branding.appName")}
            value={name}
            error={save.fields.app_name}
            onValue={setName}
          />
          <TextInput
            id="branding-primary"
            label={t("settings:branding.primary")}
            // i18n-ignore: an example colour and its format
            placeholder="#fe8019"
            // i18n-ignore: a colour's format
            hint="#RRGGBB"
            value={primary}
            error={save.fields.primary_color}
            onValue={setPrimary}
          />
          <TextInput
            id="branding-accents"
            label={t("settings:branding.accents")}
            // i18n-ignore: example colours
            placeholder="#fabd2f, #b8bb26"
            hint={t("settings:branding.accents.hint")}
            value={accents}
            error={save.fields.accent_colors}
            onValue={setAccents}
          />
          <p class="swatches" aria-hidden="true">
            {[b.primary_color, ...b.accent_colors].map((c, i) => (
              <span key={`${c}-${i}`} class="swatch" style={{ background: c }} title={c} />
            ))}
          </p>
        </fieldset>
        <Notice kind="error">{save.error}</Notice>
        <Notice kind="success">{saved}</Notice>
        {canEdit && (
          <button type="submit" class="primary" disabled={save.busy}>
            {t("settings:branding.save")}
          </button>
        )}
      </form>
      <section class="card" aria-labelledby="branding-assets-title">
        <h2 id="branding-assets-title">{t("settings:branding.images")}</h2>
        {ASSETS.map((a) => {
          const path = a.path(b);
          return (
            <div key={a.type} class="branding-asset" data-asset={a.type}>
              <Field id={`branding-${a.type}`} label={t(a.label)} hint={t(a.hint)} error={lastAsset === a.type ? files.error : undefined}>
                {(a11y) => (
                  <input
                    {...a11y}
                    type="file"
                    accept={a.accept}
                    disabled={!canEdit || files.busy}
                    onChange={(e) => {
                      const input = e.currentTarget as HTMLInputElement;
                      const file = input.files?.[0];
                      input.value = "";
                      if (file) void upload(a.type, file);
                    }}
                  />
                )}
              </Field>
              {path ? (
                <figure class="branding-preview">
                  <img src={`${path}?v=${version}`} alt={t("settings:branding.stored", { asset: t(a.label) })} />
                  <figcaption class="meta">
                    <code>{path}</code>
                  </figcaption>
                </figure>
              ) : (
                <p class="meta">{t("settings:branding.none")}</p>
              )}
              {canEdit && path && (
                <button type="button" class="danger" disabled={files.busy} onClick={() => void remove(a.type, a.label)}>
                  {t("settings:branding.remove")}
                </button>
              )}
            </div>
          );
        })}
        <Notice kind="success">{uploaded}</Notice>
      </section>
    </>
  );
}

function formOf(file: File): FormData {
  const form = new FormData();
  form.append("file", file);
  return form;
}
