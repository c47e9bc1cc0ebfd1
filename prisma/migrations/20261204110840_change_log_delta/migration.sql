-- AlterTable
ALTER TABLE "ChangeLog" ADD COLUMN     "delta" JSONB,
ADD COLUMN     "started" INTEGER[] DEFAULT ARRAY[]::INTEGER[];
