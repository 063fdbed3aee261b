import { render } from "preact";
import { App } from "./app.tsx";
import "./styles.css";
import { initTheme } from "./theme.tsx";

initTheme();
render(<App />, document.getElementById("app")!);
