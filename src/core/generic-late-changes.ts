import { asOfInstant } from './as-of';
import type { Contract } from './format/contract';
import { settleDuplicates } from './phases/1-validate/settle-duplicates';
import type { LateChange, Patch } from './format/scenario';
import { formatInstant } from './format/time';
import type { CheckedRecord, RecordSet } from './phases/1-validate/validate';

const DAY_MS = 86_400_000;

/** A label the contract denies once it is added, when the contract denies none yet. */
export const GENERIC_DENY_LABEL = 'late_hold';

/**
 * The record a late change should touch to matter: the first required record the set holds, else the first that
 * the cheap gates (project, scope, purpose, roles, deny labels, time) would let in. Only a choice of target: what
 * the change does is decided by compiling it. Never a record the user view withholds (one an authorisation rule or
 * a deny label excludes): the changes are shown in that view, so which record they name, and whether there is one,
 * must not depend on such records.
 */
function likelyAdmitted(contract: Contract, recordSet: RecordSet): CheckedRecord | undefined {
  const denied = new Set(contract.denyLabels);
  // The authorisation and deny gates exactly: what passes them is never withheld from the user view.
  const mayBeShown = ({ record }: CheckedRecord) =>
    record.access.purposes.includes(contract.purpose) &&
    !record.access.labels.some((label) => denied.has(label)) &&
    contract.principals.every((principal) => principal.roles.some((role) => record.access.roles.includes(role)));
  for (const id of contract.requiredRecords) {
    const required = recordSet.byId.get(id);
    if (required && mayBeShown(required)) return required;
  }
  const asOf = asOfInstant(contract);
  const scopes = new Set(contract.scopes);
  const passes = (item: CheckedRecord) => {
    const { record } = item;
    return (
      record.project === contract.project &&
      scopes.has(record.scope) &&
      mayBeShown(item) &&
      item.knownAt <= asOf &&
      item.validFrom <= asOf &&
      (item.validTo === null || item.validTo >= asOf)
    );
  };
  return recordSet.checked.find(passes);
}

/** The as-of a day later, in the form it was written in (a date stays a date). */
function dayLater(contract: Pick<Contract, 'asOf'>): string {
  const at = asOfInstant(contract) + DAY_MS;
  return contract.asOf.length === 10 ? formatInstant(at).slice(0, 10) : formatInstant(at);
}

function change(id: string, label: string, explanation: string, patches: Patch[]): LateChange {
  return { id, label, explanation, patches };
}

/**
 * Late changes for inputs whose scenario declares none (a records file or contract of the user's own), so the fire
 * drill works on them too: a record's validity ends, a record gets a label the contract denies, the caller loses a
 * role, the as-of moves a day. A pure function of the contract and records: the same inputs give the same changes,
 * so a selection that applied one is applied again after a reload.
 */
export function genericLateChanges(contract: Contract, given: RecordSet): LateChange[] {
  // Named by the copy of a duplicated id that stands, so a withheld duplicate never changes which changes are offered.
  const settled = settleDuplicates(contract, given);
  const recordSet = settled.ok ? settled.value : given;
  const changes: LateChange[] = [];
  const target = likelyAdmitted(contract, recordSet);
  if (target) {
    const { record } = target;
    const endsAt = formatInstant(asOfInstant(contract) - 1);
    changes.push(
      change(
        `generic-validity-ends`,
        `Late: ${record.id} stops being valid`,
        `Record ${record.id} is found to have ceased to be valid at ${endsAt}, before the as-of ` +
          `${contract.asOf}: a receipt that counted on it is stale.`,
        [{ op: 'mergeRecord', id: record.id, patch: { validTo: endsAt } }],
      ),
    );
    const label = contract.denyLabels[0] ?? GENERIC_DENY_LABEL;
    const patches: Patch[] = [
      {
        op: 'mergeRecord',
        id: record.id,
        patch: { access: { labels: [...new Set([...record.access.labels, label])] } },
      },
    ];
    if (!contract.denyLabels.includes(label))
      patches.push({ op: 'mergeContract', patch: { denyLabels: [...contract.denyLabels, label] } });
    changes.push(
      change(
        'generic-deny-label',
        `Late: ${record.id} is labelled ${label}`,
        `Record ${record.id} is given the label "${label}", which the contract denies: deny dominates every ` +
          `permit, so it can no longer be used.`,
        patches,
      ),
    );
  }
  const [principal, ...others] = contract.principals;
  if (principal) {
    const role = principal.roles.find((held) => target?.record.access.roles.includes(held)) ?? principal.roles[0] ?? '';
    const kept = principal.roles.filter((held) => held !== role);
    // A principal holds at least one role: one left with none holds a role that no record allows.
    const roles = kept.length > 0 ? kept : [`${role} (revoked)`];
    changes.push(
      change(
        'generic-role-revoked',
        `Late: ${principal.id} loses the role ${role}`,
        `The ${principal.kind} ${principal.id} no longer holds the role "${role}": every record it could read ` +
          `only through that role is now outside the authorised scope.`,
        [{ op: 'mergeContract', patch: { principals: [{ ...principal, roles }, ...others] } }],
      ),
    );
  }
  const later = dayLater(contract);
  changes.push(
    change(
      'generic-as-of-moves',
      `Late: the decision moves to ${later}`,
      `The decision is taken a day later, as of ${later} instead of ${contract.asOf}: records expire or ` +
        `come into force with no document changed.`,
      [{ op: 'mergeContract', patch: { asOf: later } }],
    ),
  );
  return changes;
}
