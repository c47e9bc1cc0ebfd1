import { subscribe, type ExecutionResult } from 'graphql';
import type { Viewer } from '../auth/viewer';
import { AppError } from '../errors';
import { loadOperations, variablesFor } from '../graphql';
import { liveContext, type LiveDeps } from './core';
import type { SignalFilter } from './filter';
import type { SignalPayload } from './protocol';

// Signal events for the push channels that carry them on request (docs/live-protocol.md, "Signal
// events"): Socket.IO's `subscribe_signals` and the SSE stream's `signals=` run the one GraphQL
// subscription Subscription.lineSignalEvents (operation LineSignalEvents, the fields of /signals), as
// graphql-ws clients do directly. Default deltas are unchanged: nobody gets signals without asking.

export type SignalEventsDeps = Pick<LiveDeps, 'schema' | 'db' | 'feed' | 'timeZone' | 'now'>;

/**
 * Starts the signal events of `filter` for `viewer`: `onSignal` gets each stored signal, `onError`
 * the message of a failure (the plan refused, the read failed) after which nothing more comes.
 * Resolves the stop function; rejects with the AppError of a refusal at the start (plan).
 */
export function signalEventsStarter(deps: SignalEventsDeps) {
  const document = loadOperations(deps.schema).get('LineSignalEvents')!;
  // kind and market_type are the domain's lower-case words; the operation takes the enum values.
  const toVariables = variablesFor(deps.schema, document);
  return async (viewer: Viewer, filter: SignalFilter, onSignal: (signal: SignalPayload) => void, onError: (message: string) => void): Promise<() => void> => {
    const contextValue = liveContext(deps, viewer);
    const variableValues = toVariables({ game_id: filter.game_id ?? null, kind: filter.kind ?? null, market_type: filter.market_type ?? null });
    const result = await subscribe({ schema: deps.schema, document, variableValues, contextValue });
    if (!(Symbol.asyncIterator in result)) {
      const original = result.errors?.[0]?.originalError;
      throw original instanceof AppError ? original : new AppError('BAD_REQUEST', result.errors?.[0]?.message ?? 'signal events did not start');
    }
    const iterator: AsyncIterator<ExecutionResult> = result[Symbol.asyncIterator]();
    let stopped = false;
    void (async () => {
      for await (const item of { [Symbol.asyncIterator]: () => iterator }) {
        if (stopped) break;
        if (item.errors?.length) {
          const original = item.errors[0]!.originalError;
          onError(original instanceof AppError ? original.message : 'internal error');
          break;
        }
        const signal = (item.data as { signal: SignalPayload } | null)?.signal;
        if (signal) onSignal(signal);
      }
    })().catch(() => onError('internal error'));
    return () => {
      stopped = true;
      void iterator.return?.();
    };
  };
}
