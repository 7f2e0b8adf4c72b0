/**
 * A playlist or segment request of the adaptive stream with the newest tokens the player holds: the grant
 * on playlists, the segment token on segments (decision 031). Links with neither are left alone.
 */
export function withFreshTokens(url: string, tokens: { grant: string; segment: string }): string {
  const parsed = new URL(url, 'http://relative.invalid');
  if (parsed.searchParams.has('grant') && tokens.grant) parsed.searchParams.set('grant', tokens.grant);
  else if (parsed.searchParams.has('t') && tokens.segment) parsed.searchParams.set('t', tokens.segment);
  else return url;
  return parsed.origin === 'http://relative.invalid' ? parsed.pathname + parsed.search : parsed.toString();
}
