// Status coverage as a section of the contract report. Apart from status-coverage.ts because the report computes the
// coverage (contract-report.ts imports status-coverage.ts) while a section is written against the report's type.
import type { ReportSection } from './contract-report.ts';
import { statusCoverageLines, statusCoverageProperties } from './status-coverage.ts';

/**
 * Status coverage as a section of the contract report: its console lines and its JUnit suite properties.
 * @example new ContractReporter({ ...settings, sections: [statusCoverageSection] });
 */
export const statusCoverageSection: ReportSection = {
  name: 'status coverage',
  consoleLines: (report) => statusCoverageLines(report.statusCoverage),
  junitProperties: (report) => statusCoverageProperties(report.statusCoverage),
};
