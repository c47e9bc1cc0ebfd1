-- CreateTable
CREATE TABLE "ChangeLog" (
    "version" BIGINT NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,
    "recordedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "games" INTEGER[],
    "markets" JSONB NOT NULL,

    CONSTRAINT "ChangeLog_pkey" PRIMARY KEY ("version")
);

-- CreateIndex
CREATE INDEX "ChangeLog_recordedAt_idx" ON "ChangeLog"("recordedAt");
