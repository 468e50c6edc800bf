/**
 * A user-view text with the withheld count masked wherever it states it: the one thing a change to withheld
 * records may move. A count of 0 states no notice at all, so the notice line goes whole.
 */
export function maskWithheldCount(text: string): string {
  return text
    .replace(/^\d+ records? (?:is|are) outside the authorised scope\.(?:\n|$)/gm, '')
    .replace(/ · withheld \d+ · /g, ' · withheld <n> · ')
    .replace(
      /^view: user \((?:no record is withheld|\d+ records? (?:is|are) outside the authorised scope and not named);/gm,
      'view: user (<withheld>;',
    );
}
