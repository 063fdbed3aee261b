// Date -> "YYYY-MM-DDTHH:MM:SS.mmmZ", exactly what Date.prototype.toISOString gives, about four times
// faster (a list page formats a couple of hundred timestamps, and toISOString was a tenth of a page's
// CPU). Years outside 1000-9999 take toISOString itself (its extended year format).
const pad2 = (n: number) => (n < 10 ? "0" : "") + n;
const pad3 = (n: number) => (n < 10 ? "00" : n < 100 ? "0" : "") + n;

export function isoTimestamp(d: Date): string {
  const year = d.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return d.toISOString();
  return `${year}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${pad3(d.getUTCMilliseconds())}Z`;
}
