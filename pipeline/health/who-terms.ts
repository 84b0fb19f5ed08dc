// WHO's terms for its datasets (the GHO, FluNet): WHO's data policy, "Terms and conditions of use for WHO data
// compilations, aggregations, evaluations and analyses" — a royalty-free, worldwide, non-exclusive right to use,
// reproduce, extract, copy and distribute the datasets for public health purposes, attributed to WHO and to the
// countries that provided the data. CC BY-NC-SA 3.0 IGO is the licence of WHO's publications, not of these datasets.
export const WHO_DATA_TERMS = "WHO data policy, terms of use for WHO datasets: free use and redistribution for public health purposes, attributed to WHO and the reporting countries";
/** The restriction those terms place on use (the registry's `nonCommercial` flag). */
export const WHO_DATA_RESTRICTION = "WHO dataset terms: licensed for public health purposes only";
