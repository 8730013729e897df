// The HTML contract report's entry: reads the report the page carries (a JSON script element) and renders it.
import { render } from 'preact';
import { readReport } from './report-data.ts';
import { ReportApp } from './report-app.tsx';

const data = document.getElementById('report-data');
const root = document.getElementById('report');
if (data && root) {
  root.replaceChildren();
  render(<ReportApp report={readReport(JSON.parse(data.textContent ?? '{}'))} />, root);
}
