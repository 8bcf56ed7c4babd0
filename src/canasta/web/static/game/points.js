// Facts about the table that the engine computes and the page only shows.

/** "natural" | "mixed" | "wild" for a canasta, as the server's view names it; null for a meld under seven. */
export function canastaKind(view, side, rank) {
  const kinds = (view.canastas || [])[side] || {};
  return kinds[rank] || null;
}

/**
 * A side's points on the table now (melded cards, canasta bonuses and red threes, which count
 * against a side with no meld), as the server's view adds them up; null when it sends none.
 */
export function pointsOnTable(view, side) {
  const sent = (view.table_points || [])[side];
  return typeof sent === "number" ? sent : null;
}
