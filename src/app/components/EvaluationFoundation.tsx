import type { FoundationReport } from '../../eval/foundation';
import { runFoundationExperiment, useEvaluationStore } from '../state/evaluation-store';
import { decimal, seconds } from './EvaluationCells';
import { Outcome, Progress, RunButton } from './EvaluationRun';

function FoundationResult({ report, elapsedMs }: { report: FoundationReport; elapsedMs: number | null }) {
  return (
    <>
      <p className="caption" data-testid="foundation-facts">
        {report.records} records, {report.queries} queries, the same FTS5 bm25 ranking in every mode.
        {elapsedMs === null ? '' : ` Ran in ${seconds(elapsedMs)}.`}
      </p>
      <div className="table-scroll">
        <table aria-label="Retrieval foundation" data-testid="foundation-table" className="evaluation-table">
          <thead>
            <tr>
              <th scope="col">mode</th>
              <th scope="col">hit@1</th>
              <th scope="col">recall@3</th>
              <th scope="col">MRR</th>
              <th scope="col">avg candidates</th>
              <th scope="col">filter false negatives</th>
            </tr>
          </thead>
          <tbody>
            {report.modes.map((mode) => (
              <tr key={mode.mode} data-testid={`foundation-table-${mode.mode}`}>
                <th scope="row">{mode.label}</th>
                <td data-label="hit@1">{decimal(mode.hitAt1, 3)}</td>
                <td data-label="recall@3">{decimal(mode.recallAt3, 3)}</td>
                <td data-label="MRR">{decimal(mode.mrr, 3)}</td>
                <td data-label="avg candidates">{decimal(mode.averageCandidates)}</td>
                <td data-label="filter false negatives" className={mode.filterFalseNegatives > 0 ? 'bad' : undefined}>
                  {mode.filterFalseNegatives}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function FoundationSection() {
  const result = useEvaluationStore((state) => state.foundation);
  return (
    <section className="panel evaluation-section" aria-labelledby="foundation-heading">
      <h3 id="foundation-heading">Retrieval foundation</h3>
      <p className="caption">
        36 records from three software projects with overlapping wording, 12 queries: content only, broad metadata,
        discriminative metadata, and discriminative metadata that treats a missing field as unknown.
      </p>
      <RunButton experiment="foundation" label="Run retrieval foundation" onRun={runFoundationExperiment} />
      <Progress experiment="foundation" />
      <Outcome
        experiment="foundation"
        result={result}
        render={(report, elapsedMs) => <FoundationResult report={report} elapsedMs={elapsedMs} />}
      />
    </section>
  );
}

/** The evaluation lab (region "Evaluation"): every experiment runs in the worker, in its own database, on demand. */
