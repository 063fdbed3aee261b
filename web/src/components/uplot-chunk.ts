// uPlot with its stylesheet: imported dynamically by time-chart.tsx, so both land in one chunk that only
// the screens with charts load.
import "uplot/dist/uPlot.min.css";
export { default } from "uplot";
