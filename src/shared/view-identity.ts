import type { CompileView } from '../worker/protocol';

/**
 * How a result names itself: by its receipt in the diagnostic view, by its user-view id in the user view (the receipt
 * id covers withheld records).
 */
export function viewIdentity(view: Pick<CompileView, 'receiptId' | 'userViewId'>): {
  readonly label: 'receipt' | 'user view';
  readonly id: string;
} {
  return view.receiptId !== null
    ? { label: 'receipt', id: view.receiptId }
    : { label: 'user view', id: view.userViewId ?? '' };
}
