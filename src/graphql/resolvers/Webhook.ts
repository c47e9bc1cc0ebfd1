import { requirePlan, type Viewer } from '../../auth/viewer';
import {
  createOwnWebhook,
  deleteOwnWebhook,
  deliveryPage,
  listOwnWebhooks,
  ownDeliveries,
  ownWebhook,
  sendTestEvent,
  updateOwnWebhook,
  type DeliveryRow,
  type WebhookPredicateModel,
  type WebhookRow,
} from '../../services/webhooks';
import type { MutationResolvers, QueryResolvers } from '../__generated__/resolvers-types';
import type { GraphQLContext } from '../context';

// Webhooks of the calling key (schema/webhook.graphql, docs/webhooks.md): the plan gate here, the
// rules and operations in src/services/webhooks.ts, the GraphQL shapes below.

/** The viewer, when its plan includes webhooks. @throws AppError PLAN_REQUIRED */
function owner(ctx: GraphQLContext): Viewer {
  const viewer = ctx.viewer!;
  requirePlan(viewer, 'webhooks', 'webhooks');
  return viewer;
}

/** The GraphQL Webhook of a row; `secret` only when it is shown (at creation). */
function webhookOf(row: WebhookRow, showSecret = false) {
  const p = row.predicate as unknown as WebhookPredicateModel;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    enabled: row.enabled,
    createdAt: row.createdAt,
    secret: showSecret ? row.secret : null,
    predicate: {
      type: p.type,
      minEvPer100: p.minEvPer100 ?? null,
      devig: p.devig ?? null,
      gameId: p.gameId ?? null,
      bookId: p.bookId ?? null,
      marketType: p.marketType ?? null,
      playerId: p.playerId ?? null,
      propType: p.propType ?? null,
      minCents: p.minCents ?? null,
      minPoints: p.minPoints ?? null,
      minBooks: p.minBooks ?? null,
      minTicketsPercent: p.minTicketsPercent ?? null,
      minWindow: p.minWindow ?? null,
    },
  };
}

/** The GraphQL WebhookDelivery of a row. */
function deliveryOf(row: DeliveryRow) {
  return {
    messageId: row.messageId,
    eventType: row.eventType,
    status: row.status as 'pending' | 'delivered' | 'failed',
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt,
    createdAt: row.createdAt,
    lastAttemptAt: row.lastAttemptAt,
    deliveredAt: row.deliveredAt,
    payload: row.payload,
  };
}

export const WebhookQuery: Pick<QueryResolvers, 'webhooks' | 'webhook' | 'webhookDeliveries'> = {
  webhooks: async (_root, _args, ctx) => (await listOwnWebhooks(ctx, owner(ctx).keyId)).map((w) => webhookOf(w)),
  webhook: async (_root, args, ctx) => webhookOf(await ownWebhook(ctx, owner(ctx).keyId, args.id)),
  webhookDeliveries: async (_root, args, ctx) => {
    const page = deliveryPage(args.limit, args.offset);
    const { items, total } = await ownDeliveries(ctx, owner(ctx).keyId, args.webhookId, page);
    return { items: items.map(deliveryOf), total };
  },
};

export const WebhookMutation: Pick<MutationResolvers, 'createWebhook' | 'updateWebhook' | 'deleteWebhook' | 'testWebhook'> = {
  createWebhook: async (_root, { input }, ctx) => webhookOf(await createOwnWebhook(ctx, owner(ctx).keyId, input, ctx.allowPrivateWebhookTargets), true),
  updateWebhook: async (_root, { id, input }, ctx) => webhookOf(await updateOwnWebhook(ctx, owner(ctx).keyId, id, input, ctx.allowPrivateWebhookTargets)),
  deleteWebhook: async (_root, { id }, ctx) => {
    await deleteOwnWebhook(ctx, owner(ctx).keyId, id);
    return { id, deleted: true };
  },
  testWebhook: async (_root, { id }, ctx) => deliveryOf(await sendTestEvent(ctx, owner(ctx).keyId, id)),
};
