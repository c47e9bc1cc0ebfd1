/**
 * The one table from the upstream feed's status pair (`status` / `real_status`) to the spec's
 * `status` vocabulary. `status_display` passes through untouched. The README shows this table.
 *
 *   upstream status / real_status   spec status   meaning
 *   scheduled / scheduled           scheduled     not started
 *   scheduled / created             scheduled     minutes before tip-off
 *   inprogress / inprogress         in_progress   being played
 *   inprogress / halftime           in_progress   half-time break
 *   complete / complete             finished      final score, not yet official
 *   complete / closed               closed        final and official (settled)
 *   postponed / postponed           postponed     moved to another date
 *   cancelled / cancelled           cancelled     will not be played
 *
 * An unknown pair maps by its `status` alone, and an unknown `status` is kept as given (lower-case).
 */
export const STATUS_TABLE: ReadonlyArray<{ upstream: string; real: string | null; status: string }> = [
  { upstream: 'scheduled', real: null, status: 'scheduled' },
  { upstream: 'inprogress', real: null, status: 'in_progress' },
  { upstream: 'complete', real: 'closed', status: 'closed' },
  { upstream: 'complete', real: null, status: 'finished' },
  { upstream: 'closed', real: null, status: 'closed' },
  { upstream: 'postponed', real: null, status: 'postponed' },
  { upstream: 'cancelled', real: null, status: 'cancelled' },
];

/** Spec status of an upstream status pair. */
export function mapStatus(upstream: string, realStatus: string | null | undefined): string {
  const status = upstream.toLowerCase();
  const real = realStatus?.toLowerCase() ?? null;
  const exact = STATUS_TABLE.find((row) => row.upstream === status && row.real === real);
  const byStatus = STATUS_TABLE.find((row) => row.upstream === status && row.real === null);
  return (exact ?? byStatus)?.status ?? status;
}
