/** The grid's and the history's Yes/No for a flag. */
export const yesNoText = (value: boolean) => (value ? 'Yes' : 'No');

/** A flag the console sends either as a boolean or as the grid's 'Yes'/'No'. */
export const isYes = (value: boolean | string) => value === true || value === 'Yes';
