"""Fitted coefficients of the Longcat difficulty predictor (generated: do not edit).

Regenerate with ``python bench/longcat_fit.py``: ridge regression (alpha 1.0) of the
simulated player's expected total moves on (indeterminate branches, success states, solution
branches), over the 100 arduboy levels and seeded 8x8 levels (sd x200 + template x60 +
fractal x60): 420 levels. Training R² 0.6958, MSE 172.90, 5-fold cross-validated R² 0.6393.
"""

INTERCEPT = 10.193721222601306
"""Predicted expected moves when every feature is 0."""

COEFFICIENTS = {
    "indeterminate_branches": 6.405562823647784,
    "success_states": -2.7251262285757663,
    "solution_branches": 4.603124666868055,
}
"""Expected moves added per unit of each feature."""

FIT = {
    "alpha": 1.0,
    "n": 420,
    "r2": 0.6958195955716635,
    "mse": 172.9028421444167,
    "cv_r2": 0.6392872309491003,
}
"""How the coefficients were fitted, and how well."""
