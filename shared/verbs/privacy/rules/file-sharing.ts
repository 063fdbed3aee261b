// File transfer and sharing protocols: FTP sends credentials and files in clear; SMB and NetBIOS are the
// classic worm path and leak host and share names (reference: FTP 8 warning, SMB/NetBIOS 8 warning).
import { portRule } from "./port-rule.ts";
import type { DeviceRule } from "./types.ts";

export const FILE_SHARING_RULES: DeviceRule[] = [
  portRule({
    id: "ftp_open",
    title: "FTP is open",
    points: 8,
    severity: "warning",
    category: "file_sharing",
    label: "FTP",
    // An FTP greeting is "220 " or "220-" and usually names FTP (vsFTPd, ProFTPD, FileZilla Server, Pure-FTPd).
    ports: [21],
    says: /^ftp\b|^220[ -].*ftp/i,
    remediation: { id: "replace_ftp", text: "Turn FTP off; use SFTP or FTPS, or an authenticated share over a VPN." },
  }),
  portRule({
    id: "smb_open",
    title: "SMB / NetBIOS file sharing is open",
    points: 8,
    severity: "warning",
    category: "file_sharing",
    label: "SMB/NetBIOS",
    ports: [445, 139],
    says: /^(microsoft-ds|netbios-ssn)\b/i,
    remediation: {
      id: "restrict_smb",
      text: "Share only what is needed, disable SMBv1 and NetBIOS, and keep SMB off untrusted segments and away from the internet.",
    },
  }),
];
