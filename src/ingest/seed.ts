import type { PrismaClient } from '../db/client';
import { LEAGUES, SPORTSBOOKS, TEAMS } from './reference-data';

/**
 * Writes the reference data (leagues, teams, sportsbooks) that is missing. Rows the feed has since
 * updated (standings, season) are left alone; sportsbook names and flags follow the reference.
 */
export async function seedReferenceData(prisma: PrismaClient): Promise<void> {
  await prisma.league.createMany({
    skipDuplicates: true,
    data: LEAGUES.map((l) => ({
      id: l.id,
      sport: l.sport,
      name: l.name,
      description: l.description,
      logo: l.logo,
      currentSeason: l.current_season,
      currentSeasonType: l.current_season_type,
      isActive: l.is_active,
    })),
  });
  await prisma.team.createMany({
    skipDuplicates: true,
    data: TEAMS.map((t) => ({
      id: t.id,
      leagueId: t.league_id,
      fullName: t.full_name,
      displayName: t.display_name,
      shortName: t.short_name,
      location: t.location,
      abbr: t.abbr,
      logo: t.logo,
      primaryColor: t.primary_color,
      secondaryColor: t.secondary_color,
      conferenceType: t.conference_type,
      divisionType: t.division_type,
      urlSlug: t.url_slug,
      coreId: t.core_id,
    })),
  });
  const books = await prisma.sportsbook.findMany();
  const stored = new Map(books.map((b) => [b.id, b]));
  for (const book of SPORTSBOOKS) {
    const data = { name: book.name, nameKnown: book.name_known, kind: book.kind, isAggregate: book.is_aggregate, isSharp: book.is_sharp };
    const current = stored.get(book.id);
    if (!current) await prisma.sportsbook.create({ data: { id: book.id, ...data } });
    else if (
      current.name !== data.name || current.nameKnown !== data.nameKnown || current.kind !== data.kind ||
      current.isAggregate !== data.isAggregate || current.isSharp !== data.isSharp
    ) {
      await prisma.sportsbook.update({ where: { id: book.id }, data });
    }
  }
}
