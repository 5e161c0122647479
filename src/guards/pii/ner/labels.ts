/** The entity types the tagger finds, in label order. */
export const nerEntities = ['PERSON', 'STREET_ADDRESS', 'LOCATION', 'ORGANIZATION'] as const;

/** A type the tagger finds. */
export type NerEntity = (typeof nerEntities)[number];

/**
 * Labels: 0 is outside any entity; entity `k` (index in `nerEntities`) has
 * `1 + 2k` for its first token (B) and `2 + 2k` for the tokens after (I).
 */
export const LABEL_COUNT = 1 + 2 * nerEntities.length;

/** The entity index of a label, or -1 for outside. */
export function entityOfLabel(label: number): number {
  return label === 0 ? -1 : (label - 1) >> 1;
}

/** Whether a label continues an entity (I). */
export function isInside(label: number): boolean {
  return label !== 0 && (label - 1) % 2 === 1;
}

/**
 * The longest text (in characters) one entity of each type may cover; a
 * longer run is cut into pieces. It bounds the stream window the pii
 * guardrail needs for these types.
 */
export const nerMaxLength: Record<NerEntity, number> = {
  PERSON: 64,
  STREET_ADDRESS: 160,
  LOCATION: 64,
  ORGANIZATION: 96,
};
