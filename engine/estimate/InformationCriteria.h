#pragma once

#include <cstddef>

namespace sysid::estimate {

// Criteria that trade a model's fit against its number of estimated parameters, for comparing
// models (of different structure and size) fitted to the same record. All three are built from
// -2 ln L at the estimate, up to a constant that is the same for every model compared on the same
// record with the same noise model, so only their differences mean something (lower is better):
//   AIC  = -2 ln L + 2 k                      (Akaike 1974)
//   AICc = AIC + 2 k (k + 1) / (N - k - 1)    (Hurvich and Tsai 1989; AIC for small N/k)
//   BIC  = -2 ln L + k ln N                   (Schwarz 1978)
// with k the estimated parameters and N the residuals (measured samples). For least squares with
// weights w_j = 1/sigma_j^2 fixed beforehand (the noise estimate of the data, or the user's),
// -2 ln L = 2 J + const with J = 1/2 sum w_j r^2 the weighted cost (Ljung 1999, §7.4 and §16.4).
// An estimator that also estimates the noise variances passes its own -2 ln L
// (sum over outputs of N_j ln(M_jj / N_j) + const) and counts the variances in k.
struct InformationCriteria {
    double aic = 0.0;
    double aicc = 0.0;  // NaN when N <= k + 1
    double bic = 0.0;
};

InformationCriteria informationCriteria(double minusTwoLogLikelihood, std::size_t parameters, std::size_t residuals);

}  // namespace sysid::estimate
