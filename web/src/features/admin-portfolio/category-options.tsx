import { portfolioCategoryLabels } from '@app/shared/constants';
import { portfolioCategories } from '../../lib/schemas.ts';

/** The portfolio's categories as a select's options: the upload's and a photo's own. */
export function CategoryOptions() {
  return portfolioCategories.map((value) => (
    <option key={value} value={value}>
      {portfolioCategoryLabels[value]}
    </option>
  ));
}
