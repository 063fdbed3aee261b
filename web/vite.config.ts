// The web UI's build (docs/web-ui.md): `npm run build:web` -> web/dist, which the Node server serves at /.
// Every asset gets a content-hashed name under /assets, so the server can cache it for a year.
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "/",
  plugins: [preact()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: true,
    target: "es2022",
  },
  server: {
    // `npm run dev:web`: the API of a running `npm start` behind Vite's dev server (docs/web-ui.md).
    proxy: { "/api": { target: process.env.API_URL ?? "http://127.0.0.1:8080", ws: true } },
  },
});
