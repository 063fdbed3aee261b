// Types of parse-prometheus-text-format (it ships none): prom2json's shape, values as strings.
declare module "parse-prometheus-text-format" {
  interface PromSample {
    labels?: Record<string, string>;
    value?: string;
    timestamp_ms?: string;
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  interface PromFamily {
    name: string;
    help: string;
    type: string;
    metrics: PromSample[];
  }
  export default function parsePrometheusTextFormat(text: string): PromFamily[];
}
