import { requirePlan, type Viewer } from '../../auth/viewer';
import {
  createWebhookWithinCap,
  deleteWebhook,
  findWebhook,
  insertDelivery,
  listDeliveries,
  listWebhooks,
  updateWebhook,
  type WebhookRow,
} from '../../db/webhook-repository';
import { AppError } from '../../errors';
import type { MutationResolvers, QueryResolvers } from '../__generated__/resolvers-types';
import { invalidParameter, MAX_LIMIT } from '../arguments';
import type { GraphQLContext } from '../context';
import {
  checkDescription,
  checkPredicate,
  checkUrl,
  deliveryOf,
  MAX_WEBHOOKS_PER_KEY,
  newMessageId,
  newWebhookSecret,
  webhookOf,
} from '../webhooks';

// Webhooks of the calling key (schema/webhook.graphql, docs/webhooks.md). API processes only manage:
// they write webhooks and test events; the ingesting process evaluates and sends (src/webhooks).
// Another key's webhook is "not found", never "forbidden": ids of others are not disclosed.

/** The viewer, when its plan includes webhooks. @throws AppError PLAN_REQUIRED */
function owner(ctx: GraphQLContext): Viewer {
  const viewer = ctx.viewer!;
  requirePlan(viewer, 'webhooks', 'webhooks');
  return viewer;
}

async function ownWebhook(ctx: GraphQLContext, id: number): Promise<WebhookRow> {
  const row = await findWebhook(ctx.db.prisma, owner(ctx).keyId, id);
  if (!row) throw new AppError('WEBHOOK_NOT_FOUND', `webhook ${id} not found`);
  return row;
}

export const WebhookQuery: Pick<QueryResolvers, 'webhooks' | 'webhook' | 'webhookDeliveries'> = {
  webhooks: async (_root, _args, ctx) => (await listWebhooks(ctx.db.prisma, owner(ctx).keyId)).map((w) => webhookOf(w)),
  webhook: async (_root, args, ctx) => webhookOf(await ownWebhook(ctx, args.id)),
  webhookDeliveries: async (_root, args, ctx) => {
    const limit = args.limit ?? 100;
    const offset = args.offset ?? 0;
    if (limit < 1 || limit > MAX_LIMIT) throw invalidParameter('limit', `must be an integer from 1 to ${MAX_LIMIT}`);
    if (offset < 0) throw invalidParameter('offset', 'must be an integer of at least 0');
    const hook = await ownWebhook(ctx, args.webhookId);
    const page = await listDeliveries(ctx.db.prisma, hook.id, limit, offset);
    return { items: page.items.map(deliveryOf), total: page.total };
  },
};

export const WebhookMutation: Pick<MutationResolvers, 'createWebhook' | 'updateWebhook' | 'deleteWebhook' | 'testWebhook'> = {
  createWebhook: async (_root, { input }, ctx) => {
    const viewer = owner(ctx);
    const url = checkUrl(input.url, ctx.allowPrivateWebhookTargets);
    const description = checkDescription(input.description);
    const predicate = checkPredicate(input.predicate);
    const row = await createWebhookWithinCap(ctx.db.prisma, MAX_WEBHOOKS_PER_KEY, {
      keyId: viewer.keyId,
      url,
      description,
      secret: newWebhookSecret(),
      predicate: { ...predicate },
      enabled: input.enabled ?? true,
      createdAt: ctx.now,
    });
    if (!row) throw invalidParameter('url', `this key already has ${MAX_WEBHOOKS_PER_KEY} webhooks, the most one key may hold; delete one first`);
    return webhookOf(row, true);
  },
  updateWebhook: async (_root, { id, input }, ctx) => {
    const viewer = owner(ctx);
    if (input.enabled === null) throw invalidParameter('enabled', 'must be true or false');
    const changes = {
      ...(input.url !== undefined && { url: checkUrl(input.url ?? '', ctx.allowPrivateWebhookTargets) }),
      ...(input.description !== undefined && { description: checkDescription(input.description) }),
      ...(input.predicate !== undefined && input.predicate !== null && { predicate: { ...checkPredicate(input.predicate) } }),
      ...(input.enabled !== undefined && { enabled: input.enabled }),
    };
    const row = await updateWebhook(ctx.db.prisma, viewer.keyId, id, changes);
    if (!row) throw new AppError('WEBHOOK_NOT_FOUND', `webhook ${id} not found`);
    return webhookOf(row);
  },
  deleteWebhook: async (_root, { id }, ctx) => {
    if (!(await deleteWebhook(ctx.db.prisma, owner(ctx).keyId, id))) throw new AppError('WEBHOOK_NOT_FOUND', `webhook ${id} not found`);
    return { id, deleted: true };
  },
  testWebhook: async (_root, { id }, ctx) => {
    const hook = await ownWebhook(ctx, id);
    const messageId = newMessageId();
    const payload = { type: 'webhook.test', timestamp: ctx.now.toISOString(), data: { webhook_id: hook.id, message: 'test event sent on request (POST .../webhooks/:id/test)' } };
    const row = await insertDelivery(ctx.db.prisma, { webhookId: hook.id, messageId, eventKey: `test:${messageId}`, eventType: 'webhook.test', payload }, ctx.now);
    return deliveryOf(row);
  },
};
