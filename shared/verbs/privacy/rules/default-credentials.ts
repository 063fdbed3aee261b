// Devices that announce themselves in a way known to come with default credentials: a banner or page
// title that says so outright, or the login page of a product line shipped with a well-known default
// account (published in vendor manuals and in default-password lists). Evidence quotes what matched;
// the rule cannot know whether the default was changed, so its remediation says to check.
import { type DeviceRule, portHits, said, where } from "./types.ts";

/** [pattern over service, banner, title and Server header; what it means]. */
export const DEFAULT_CREDENTIAL_SIGNS: [RegExp, string][] = [
  [/\bdefault (user ?name|username|password|login|credentials?)\b/i, "the page mentions a default login"],
  [/\b(admin|root|user)\s*\/\s*(admin|password|1234|12345|root|user)\b/i, "the page shows a default user/password pair"],
  [/\bNETSurveillance WEB\b/i, "XMeye/NETSurveillance DVR (ships with admin and an empty password)"],
  [/\bRouterOS router configuration page\b/i, "MikroTik RouterOS (older releases: admin with an empty password)"],
  [/\bDD-WRT\b.*\b(setup|password)\b/i, "DD-WRT first-run setup (root/admin)"],
  [/\b(Hipcam|IPCam Client|Network Camera VB-|WVC54GC?A?)\b/i, "an IP camera line with a published default account"],
  [/\bRaspbian\b/, "Raspberry Pi OS (older images: pi/raspberry)"],
  [/\b(Please change (the|your) default password|factory default password)\b/i, "the device asks for its factory password to be changed"],
];

export const DEFAULT_CREDENTIAL_RULES: DeviceRule[] = [
  {
    id: "default_credentials",
    title: "Device known for default credentials",
    points: 15,
    severity: "critical",
    category: "credentials",
    remediation: {
      id: "change_default_credentials",
      text: "Log in and replace the factory account and password (or disable the account); update the firmware; keep the device's admin page off shared networks.",
    },
    match: (d) =>
      portHits(
        d,
        (p) => DEFAULT_CREDENTIAL_SIGNS.some(([re]) => re.test(said(p))),
        (p) => {
          const text = said(p);
          const why = DEFAULT_CREDENTIAL_SIGNS.find(([re]) => re.test(text))![1];
          return `${why}: "${text.slice(0, 120)}" at ${where(d, p)}`;
        },
      ),
  },
];
