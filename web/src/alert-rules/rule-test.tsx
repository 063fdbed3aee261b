// The answer of "Test against the last hour" in words, one line per node that changed state; a rule that
// changed nothing says so, with how much it was judged on (no node with values is not "all quiet").
import { say } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { clock, outcomes, type TestResult } from "./rule-text.ts";

export function RuleTestResult({ result }: { result: TestResult }) {
  const t = useT();
  const lines = outcomes(say, result);
  const judged = t("alert-rules:test.judged", {
    count: result.nodes_evaluated,
    samples: result.samples,
    from: clock(result.from),
    to: clock(result.to),
  });
  return (
    <section class="notice notice-info rule-test" role="status" aria-label={t("alert-rules:test.title")}>
      {result.nodes_evaluated === 0 ? (
        <p>{t("alert-rules:test.nothing")}</p>
      ) : lines.length === 0 || lines.every((l) => !l.fired) ? (
        <p>{t("alert-rules:test.quiet", { judged })}</p>
      ) : (
        <p>{t("alert-rules:test.judgedOn", { judged })}</p>
      )}
      {lines.length > 0 && (
        <ul>
          {lines.map((l) => (
            <li key={l.hardware_id}>
              <Link href={`/inventory/hardware/${l.hardware_id}`}>{l.name}</Link> {l.sentence}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
