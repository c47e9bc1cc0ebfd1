-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Plan" AS ENUM ('starter', 'pro', 'elite');

-- CreateEnum
CREATE TYPE "SubscriptionStatus" AS ENUM ('active', 'canceled', 'inactive');

-- CreateTable
CREATE TABLE "League" (
    "id" INTEGER NOT NULL,
    "sport" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "logo" TEXT NOT NULL,
    "currentSeason" TEXT NOT NULL,
    "currentSeasonType" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "League_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Team" (
    "id" INTEGER NOT NULL,
    "leagueId" INTEGER NOT NULL,
    "fullName" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "shortName" TEXT NOT NULL,
    "location" TEXT NOT NULL,
    "abbr" TEXT NOT NULL,
    "logo" TEXT,
    "primaryColor" TEXT,
    "secondaryColor" TEXT,
    "conferenceType" TEXT,
    "divisionType" TEXT,
    "urlSlug" TEXT,
    "coreId" INTEGER,
    "win" INTEGER,
    "loss" INTEGER,
    "ties" INTEGER,
    "overtimeLosses" INTEGER,
    "draw" INTEGER,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Team_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Game" (
    "id" INTEGER NOT NULL,
    "leagueId" INTEGER NOT NULL,
    "coreId" TEXT,
    "status" TEXT NOT NULL,
    "upstreamStatus" TEXT NOT NULL,
    "realStatus" TEXT NOT NULL,
    "statusDisplay" TEXT,
    "startTime" TIMESTAMP(3) NOT NULL,
    "awayTeamId" INTEGER NOT NULL,
    "homeTeamId" INTEGER NOT NULL,
    "winningTeamId" INTEGER,
    "type" TEXT,
    "season" TEXT,
    "week" INTEGER,
    "attendance" INTEGER,
    "coverage" TEXT,
    "isFree" BOOLEAN NOT NULL DEFAULT false,
    "trending" BOOLEAN NOT NULL DEFAULT false,
    "awayRotationNumber" INTEGER,
    "homeRotationNumber" INTEGER,
    "numBets" INTEGER,
    "broadcast" JSONB,
    "series" JSONB,
    "meta" JSONB,
    "simulated" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Game_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Boxscore" (
    "gameId" INTEGER NOT NULL,
    "clock" TEXT,
    "period" INTEGER,
    "homeScore" INTEGER,
    "awayScore" INTEGER,
    "periodScores" JSONB NOT NULL,
    "totalPoints" INTEGER,
    "homeFirstHalf" INTEGER,
    "awayFirstHalf" INTEGER,
    "homeSecondHalf" INTEGER,
    "awaySecondHalf" INTEGER,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Boxscore_pkey" PRIMARY KEY ("gameId")
);

-- CreateTable
CREATE TABLE "Sportsbook" (
    "id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "isAggregate" BOOLEAN NOT NULL DEFAULT false,
    "isSharp" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "Sportsbook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Quote" (
    "id" BIGSERIAL NOT NULL,
    "gameId" INTEGER NOT NULL,
    "bookId" INTEGER NOT NULL,
    "marketType" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "isLive" BOOLEAN NOT NULL,
    "outcomeId" TEXT,
    "teamId" INTEGER,
    "point" DOUBLE PRECISION,
    "american" INTEGER NOT NULL,
    "decimal" DOUBLE PRECISION NOT NULL,
    "fractional" TEXT NOT NULL,
    "isAvailable" BOOLEAN NOT NULL DEFAULT true,
    "lineStatus" TEXT NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Quote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OddsHistory" (
    "id" BIGSERIAL NOT NULL,
    "gameId" INTEGER NOT NULL,
    "bookId" INTEGER NOT NULL,
    "marketType" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "isLive" BOOLEAN NOT NULL,
    "point" DOUBLE PRECISION,
    "american" INTEGER NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OddsHistory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PublicBetting" (
    "id" BIGSERIAL NOT NULL,
    "gameId" INTEGER NOT NULL,
    "bookId" INTEGER NOT NULL,
    "marketType" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "ticketsPercent" DOUBLE PRECISION,
    "moneyPercent" DOUBLE PRECISION,
    "numBets" INTEGER,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PublicBetting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "plan" "Plan" NOT NULL,
    "subscriptionStatus" "SubscriptionStatus" NOT NULL DEFAULT 'active',
    "subscriptionEndsAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "name" TEXT,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Team_leagueId_idx" ON "Team"("leagueId");

-- CreateIndex
CREATE INDEX "Game_startTime_id_idx" ON "Game"("startTime", "id");

-- CreateIndex
CREATE INDEX "Game_status_startTime_idx" ON "Game"("status", "startTime");

-- CreateIndex
CREATE INDEX "Game_homeTeamId_idx" ON "Game"("homeTeamId");

-- CreateIndex
CREATE INDEX "Game_awayTeamId_idx" ON "Game"("awayTeamId");

-- CreateIndex
CREATE INDEX "Quote_gameId_idx" ON "Quote"("gameId");

-- CreateIndex
CREATE UNIQUE INDEX "Quote_gameId_bookId_marketType_period_side_isLive_key" ON "Quote"("gameId", "bookId", "marketType", "period", "side", "isLive");

-- CreateIndex
CREATE INDEX "OddsHistory_gameId_seenAt_idx" ON "OddsHistory"("gameId", "seenAt");

-- CreateIndex
CREATE INDEX "OddsHistory_seenAt_idx" ON "OddsHistory"("seenAt");

-- CreateIndex
CREATE INDEX "PublicBetting_gameId_idx" ON "PublicBetting"("gameId");

-- CreateIndex
CREATE UNIQUE INDEX "PublicBetting_gameId_bookId_marketType_period_side_key" ON "PublicBetting"("gameId", "bookId", "marketType", "period", "side");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE INDEX "ApiKey_accountId_idx" ON "ApiKey"("accountId");

-- AddForeignKey
ALTER TABLE "Team" ADD CONSTRAINT "Team_leagueId_fkey" FOREIGN KEY ("leagueId") REFERENCES "League"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Game" ADD CONSTRAINT "Game_leagueId_fkey" FOREIGN KEY ("leagueId") REFERENCES "League"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Boxscore" ADD CONSTRAINT "Boxscore_gameId_fkey" FOREIGN KEY ("gameId") REFERENCES "Game"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Quote" ADD CONSTRAINT "Quote_gameId_fkey" FOREIGN KEY ("gameId") REFERENCES "Game"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
