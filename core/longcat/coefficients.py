"""Fitted coefficients of the Longcat difficulty predictor (generated: do not edit).

Regenerate with ``python bench/longcat_fit.py``: ridge regression (alpha 1.0) of the
simulated player's expected total moves on (indeterminate branches, solutions, solution
branches), over the 100 arduboy levels and seeded 8x8 levels (sd x200 + template x60 +
fractal x60): 420 levels. Training R² 0.6994, MSE 170.86, 5-fold cross-validated R² 0.6432.
"""

INTERCEPT = 10.312574233757559
"""Predicted expected moves when every feature is 0."""

COEFFICIENTS = {
    'indeterminate_branches': 6.384905709240854,
    'solutions': -2.647445846566706,
    'solution_branches': 4.652888695483916,
}
"""Expected moves added per unit of each feature."""

FIT = {"alpha": 1.0, "n": 420, "r2": 0.6994210750465046,
       "mse": 170.8556818801153, "cv_r2": 0.6431959048160303}
"""How the coefficients were fitted, and how well."""
