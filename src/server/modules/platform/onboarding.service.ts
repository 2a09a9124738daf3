import { and, asc, count, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm'
import type {
  OnboardingKind,
  OnboardingTask,
  OnboardingTaskList,
  TaskPriority,
} from '../../../shared/schemas/platform'
import type { AppDb } from '../../db/client'
import { hospitals } from '../../db/schema/hospitals'
import { onboardingTasks } from '../../db/schema/platform'
import { withPlatform } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordPlatformAudit } from '../audit/platform-audit.service'

const columns = {
  id: onboardingTasks.id,
  hospitalId: onboardingTasks.hospitalId,
  hospitalName: hospitals.name,
  kind: onboardingTasks.kind,
  taskName: onboardingTasks.taskName,
  description: onboardingTasks.description,
  priority: onboardingTasks.priority,
  completedAt: onboardingTasks.completedAt,
  completedBy: onboardingTasks.completedBy,
}

interface Row {
  id: string
  hospitalId: string
  hospitalName: string
  kind: string
  taskName: string
  description: string
  priority: string
  completedAt: Date | null
  completedBy: string | null
}

function toTask(r: Row): OnboardingTask {
  return {
    id: r.id,
    hospitalId: r.hospitalId,
    hospitalName: r.hospitalName,
    kind: r.kind as OnboardingKind,
    taskName: r.taskName,
    description: r.description,
    priority: r.priority as TaskPriority,
    isCompleted: r.completedAt !== null,
    completedAt: r.completedAt?.toISOString() ?? null,
    completedHow: r.completedBy === null ? null : r.completedBy === 'auto' ? 'auto' : 'manual',
  }
}

/**
 * GET /api/admin/onboarding-tasks: pending tasks first (newest hospitals first, then the
 * task's order), then completed ones. A task the hospital has done is already complete: the
 * triggers of drizzle/0023 mark it in the same transaction as the hospital's own write.
 */
export async function listTasks(opts: {
  db: AppDb
  hospitalId?: string | undefined
  status?: 'all' | 'pending' | 'completed' | undefined
  limit: number
  offset: number
}): Promise<OnboardingTaskList> {
  const filters: SQL[] = []
  if (opts.hospitalId) filters.push(eq(onboardingTasks.hospitalId, opts.hospitalId))
  if (opts.status === 'pending') filters.push(isNull(onboardingTasks.completedAt))
  if (opts.status === 'completed') filters.push(isNotNull(onboardingTasks.completedAt))
  const where = filters.length ? and(...filters) : undefined
  return withPlatform(opts.db, async (tx) => {
    const rows = await tx
      .select(columns)
      .from(onboardingTasks)
      .innerJoin(hospitals, eq(hospitals.id, onboardingTasks.hospitalId))
      .where(where)
      .orderBy(
        desc(isNull(onboardingTasks.completedAt)),
        desc(hospitals.createdAt),
        asc(hospitals.id),
        asc(onboardingTasks.sortOrder),
      )
      .limit(opts.limit)
      .offset(opts.offset)
    const [total] = await tx.select({ n: count() }).from(onboardingTasks).where(where)
    return { items: rows.map(toTask), total: total?.n ?? 0 }
  })
}

/** PATCH /api/admin/onboarding-tasks/:id/complete: 409 when it is complete already. */
export async function completeTask(opts: {
  db: AppDb
  userId: string
  id: string
}): Promise<OnboardingTask> {
  await withPlatform(opts.db, async (tx) => {
    const [task] = await tx
      .select(columns)
      .from(onboardingTasks)
      .innerJoin(hospitals, eq(hospitals.id, onboardingTasks.hospitalId))
      .where(eq(onboardingTasks.id, opts.id))
      .for('update', { of: onboardingTasks })
    if (!task) throw notFound('Onboarding task')
    if (task.completedAt) throw new AppError('CONFLICT', 'This task is already completed')
    await tx
      .update(onboardingTasks)
      .set({ completedAt: new Date(), completedBy: opts.userId })
      .where(eq(onboardingTasks.id, opts.id))
    await recordPlatformAudit(tx, {
      actorUserId: opts.userId,
      hospitalId: task.hospitalId,
      action: 'onboarding.completed',
      entityType: 'onboarding_task',
      entityId: opts.id,
      summary: `${task.hospitalName}: marked '${task.taskName}' as completed`,
    })
  })
  const [row] = await withPlatform(opts.db, (tx) =>
    tx
      .select(columns)
      .from(onboardingTasks)
      .innerJoin(hospitals, eq(hospitals.id, onboardingTasks.hospitalId))
      .where(eq(onboardingTasks.id, opts.id)),
  )
  if (!row) throw notFound('Onboarding task')
  return toTask(row)
}
