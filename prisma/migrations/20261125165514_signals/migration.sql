-- CreateTable
CREATE TABLE "LineSignal" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "gameId" INTEGER NOT NULL,
    "marketType" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "data" JSONB NOT NULL,
    "detectedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LineSignal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "LineSignal_key_key" ON "LineSignal"("key");

-- CreateIndex
CREATE INDEX "LineSignal_gameId_at_idx" ON "LineSignal"("gameId", "at");

-- CreateIndex
CREATE INDEX "LineSignal_at_idx" ON "LineSignal"("at");
