import { REASONS, type ReasonCode } from './reasons';
import { plural } from './messages-wording';

/** The catalogue's messages on files, inputs, controls and late changes: a part of `MESSAGES`. */
export const INPUT_MESSAGES = {
  // Files and inputs, as one line per refused file.
  FILE_PROBLEMS: ({ file, kind, total, shown }: { file: string; kind: string | null; total: number; shown: number }) =>
    `${file}: ${kind === null ? '' : `not a valid ${kind}: `}${total} ${plural(total, 'problem')}${total > shown ? ` (first ${shown} shown)` : ''}`,
  FILE_PROBLEM: ({ file, problem }: { file: string; problem: string }) => `${file}: ${problem}`,
  ISSUE_AT: ({ where, path, problem }: { where: string; path: string; problem: string }) =>
    `${where}: ${path}: ${problem}`,
  RECEIPT_REFUSED: ({ file, code, detail }: { file: string; code: ReasonCode; detail: string }) =>
    `${file}: ${REASONS[code].summary} ${detail}`,
  FOUNDATION_PROBLEMS: ({ count }: { count: number }) => `retrieval foundation: ${count} ${plural(count, 'problem')}`,
  READ_AS: ({ recognised, problems }: { recognised: string; problems: string }) => `read as ${recognised}: ${problems}`,
  READ_AS_TOO_LARGE: ({ recognised }: { recognised: string }) => `read as ${recognised}: too large`,
  USER_VIEW_EXPORT_DROPPED: () => 'a user-view export, which is not a receipt',
  FILE_NOT_RECOGNISED: () => 'not recognised as any kind of file this version reads',
  LOADED: ({ files }: { files: readonly string[] }) => `Loaded ${files.join(', ')}.`,

  // Controls and late changes.
  CHANGE_REFUSED: ({ change, label, problem }: { change: string; label: string; problem: string }) =>
    `${change} ("${label}"): ${problem}`,
  PATCHED_CONTRACT_INVALID: ({ path, problem }: { path: string; problem: string }) =>
    `the patched contract is invalid at ${path}: ${problem}`,
  PATCHED_RECORD_INVALID: ({ record, path, problem }: { record: string; path: string; problem: string }) =>
    `the patched record ${record} is invalid at ${path}: ${problem}`,
  PATCH_RECORD_MISSING: ({ record }: { record: string }) => `patches record ${record}, which is not among the records`,
  PATCH_RENAMES: ({ record }: { record: string }) => `a patch may not rename record ${record}`,
  ADD_RECORD_EXISTS: ({ record }: { record: string }) => `adds record ${record}, which already exists`,
  REMOVE_RECORD_MISSING: ({ record }: { record: string }) => `removes record ${record}, which is not among the records`,
  SWITCH_UNKNOWN: ({ kind, id, known }: { kind: string; id: string; known: readonly string[] }) =>
    `no ${kind} "${id}"; available: ${known.join(', ') || 'none'}`,
  RECORDS_WITH_CONTRACT: () => 'give --records and --contract together, or --scenario alone',
  SWITCHES_NEED_SCENARIO: () => '--control and --late-change need a scenario: records and a contract carry no controls',
  GROWTH_SIZES: ({ sizes }: { sizes: readonly number[] }) => `growth sizes must be among ${sizes.join(', ')}`,
} as const;
