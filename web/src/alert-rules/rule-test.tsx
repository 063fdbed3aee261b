// The answer of "Test against the last hour" in words, one line per node that changed state; a rule that
// changed nothing says so, with how much it was judged on (no node with values is not "all quiet").
import { Link } from "../router.tsx";
import { clock, outcomes, type TestResult } from "./rule-text.ts";

export function RuleTestResult({ result }: { result: TestResult }) {
  const lines = outcomes(result);
  const judged = `${result.nodes_evaluated} ${result.nodes_evaluated === 1 ? "node" : "nodes"}, ${result.samples} samples, ${clock(result.from)}–${clock(result.to)}`;
  return (
    <section class="notice notice-info rule-test" role="status" aria-label="Test against the last hour">
      {result.nodes_evaluated === 0 ? (
        <p>No node in this rule's scope has values of this metric in the last hour: there is nothing to judge.</p>
      ) : lines.length === 0 || lines.every((l) => !l.fired) ? (
        <p>Would not have fired in the last hour ({judged}).</p>
      ) : (
        <p>Judged on {judged}:</p>
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
