import type { Showcase } from './shared.ts';

/** The options of a "which showcase" select: none ("none"), then each showcase by id. */
export function ShowcaseOptions({ showcases }: { showcases: Showcase[] }) {
  return (
    <>
      <option value="none">No showcase</option>
      {showcases.map((showcase) => (
        <option key={showcase.id} value={showcase.id}>
          {showcase.name}
        </option>
      ))}
    </>
  );
}
