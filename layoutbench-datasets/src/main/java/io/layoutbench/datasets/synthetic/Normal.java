package io.layoutbench.datasets.synthetic;

/**
 * The standard normal distribution's CDF and quantile function. StrictMath keeps results bit-identical on every
 * JVM, so the synthetic metadata does not depend on the machine that generates it.
 *
 * <pre>{@code
 * double z = Normal.quantile(0.975);   // 1.95996...
 * double p = Normal.cdf(z);            // 0.975
 * }</pre>
 */
public final class Normal {

    private Normal() {
    }

    /** P(Z <= x), absolute error below 1e-7 (Numerical Recipes' Chebyshev fit of erfc). */
    public static double cdf(double x) {
        if (x == Double.NEGATIVE_INFINITY) {
            return 0;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return 1;
        }
        return 0.5 * erfc(-x / StrictMath.sqrt(2));
    }

    private static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double r = t * StrictMath.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }

    /** The x with P(Z <= x) = p, for 0 < p < 1; relative error below 1.2e-9 (Acklam's rational fit). */
    public static double quantile(double p) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("Probability must be in (0, 1): " + p);
        }
        final double pLow = 0.02425;
        if (p < pLow) {
            double q = StrictMath.sqrt(-2 * StrictMath.log(p));
            return tail(q);
        }
        if (p > 1 - pLow) {
            double q = StrictMath.sqrt(-2 * StrictMath.log(1 - p));
            return -tail(q);
        }
        double q = p - 0.5;
        double r = q * q;
        return (((((-3.969683028665376e+01 * r + 2.209460984245205e+02) * r - 2.759285104469687e+02) * r
                + 1.383577518672690e+02) * r - 3.066479806614716e+01) * r + 2.506628277459239e+00) * q
                / (((((-5.447609879822406e+01 * r + 1.615858368580409e+02) * r - 1.556989798598866e+02) * r
                + 6.680131188771972e+01) * r - 1.328068155288572e+01) * r + 1);
    }

    private static double tail(double q) {
        return (((((-7.784894002430293e-03 * q - 3.223964580411365e-01) * q - 2.400758277161838e+00) * q
                - 2.549732539343734e+00) * q + 4.374664141464968e+00) * q + 2.938163982698783e+00)
                / ((((7.784695709041462e-03 * q + 3.224671290700398e-01) * q + 2.445134137142996e+00) * q
                + 3.754408661907416e+00) * q + 1);
    }
}
