#include "engine/job/PreparedFit.h"

#include "engine/data/DataError.h"
#include "engine/estimate/Fit.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/estimate/PriorRows.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/job/ModelText.h"
#include "engine/model/ModelParameter.h"

#include <stdexcept>

namespace sysid::job {

namespace {

std::size_t indexOfParameter(const eval::CompiledModelSource& model, const std::string& name)
{
    for (std::size_t i = 0; i < model.parameterCount(); ++i)
        if (model.parameterNames[i] == name)
            return i;
    return model.parameterCount();
}

}  // namespace

PreparedFit::PreparedFit(const FitJob& job) : modelSource_(job.modelSource)
{
    model_ = compileModelText(job.modelText, job.modelSource,
                              {.secondDerivatives = estimate::needsSecondDerivatives(job.settings)},
                              job.settings.integrator.modelCode);
    values_ = startingValues(*model_, job.parameterValues);
    checkFitSettings(*model_, job.settings);
    if (job.experiments.empty())
        throw JobError(JobError::Kind::Data, "no data to fit: give at least one data set");
    experiments_ = preparedExperiments(job, *model_);
    settings_ = job.settings;
    // Velocities for the equation-error methods are differentiated as the preprocessing says.
    settings_.equationError.differentiation = job.preprocessing.differentiation;
    integrate::resolveMethod(settings_.integrator, *model_);

    std::vector<std::string> names;
    try {
        names = estimate::estimatedParameterNames(*model_, experiments_, settings_.method);
        if (estimate::traitsOf(settings_.method).objective != estimate::Objective::EquationError) {
            const estimate::ParameterLayout layout = estimate::layoutFor(*model_, values_, experiments_);
            for (const auto& u : layout.unknowns())
                unknowns_.push_back({u.name, model_->parameterNames[u.modelIndex], u.modelIndex, u.experiment,
                                     u.initial, u.lower, u.upper});
        } else {  // the equation-error methods estimate shared parameters only
            for (const std::string& name : names) {
                const std::size_t i = indexOfParameter(*model_, name);
                const auto& p = model_->parameters.at(i);
                unknowns_.push_back({name, name, i, -1, values_[i], p.lower, p.upper});
            }
        }
        priors_.assign(unknowns_.size(), std::nullopt);
        if (estimate::traitsOf(settings_.method).takes(estimate::MethodInput::Priors))
            priors_ = estimate::priorsFor(estimate::layoutFor(*model_, values_, experiments_), *model_, settings_);
    } catch (const estimate::FitError& e) {
        throw JobError(JobError::Kind::Settings, e.what());
    }
}

std::vector<std::string> PreparedFit::unknownNames() const
{
    std::vector<std::string> names;
    for (const FitUnknown& u : unknowns_)
        names.push_back(u.name);
    return names;
}

std::optional<std::size_t> PreparedFit::unknownIndex(const std::string& name) const
{
    for (std::size_t u = 0; u < unknowns_.size(); ++u)
        if (unknowns_[u].name == name)
            return u;
    return std::nullopt;
}

estimate::FitResult PreparedFit::fit(const std::vector<double>& start, std::optional<HeldUnknown> held,
                                     estimate::ProgressSink* observer, std::stop_token stop) const
{
    if (!start.empty() && start.size() != unknowns_.size())
        throw std::invalid_argument("PreparedFit::fit: one starting value per unknown expected");
    std::vector<double> values = values_;
    std::vector<estimate::Experiment> experiments;
    const std::vector<estimate::Experiment>* used = &experiments_;
    const bool perRecord = [&] {
        if (held && unknowns_.at(held->unknown).record >= 0)
            return true;
        if (!start.empty())
            for (const FitUnknown& u : unknowns_)
                if (u.record >= 0)
                    return true;
        return false;
    }();
    if (perRecord) {
        experiments = experiments_;
        used = &experiments;
    }
    for (std::size_t u = 0; u < start.size(); ++u) {
        const FitUnknown& unknown = unknowns_[u];
        if (unknown.record < 0)
            values[unknown.modelIndex] = start[u];
        else
            experiments[static_cast<std::size_t>(unknown.record)].startValues[unknown.modelName] = start[u];
    }
    std::shared_ptr<const eval::CompiledModelSource> model = model_;
    estimate::FitSettings settings = settings_;
    if (held) {
        const FitUnknown& unknown = unknowns_.at(held->unknown);
        settings.priors.erase(unknown.name);
        if (unknown.record < 0) {
            auto own = std::make_shared<eval::CompiledModelSource>(*model_);
            own->parameters[unknown.modelIndex].fixed = true;
            model = std::move(own);
            values[unknown.modelIndex] = held->value;
        } else {
            experiments[static_cast<std::size_t>(unknown.record)].heldInitialValues[unknown.modelName] = held->value;
            experiments[static_cast<std::size_t>(unknown.record)].startValues.erase(unknown.modelName);
        }
    }
    try {
        estimate::FitResult result =
            estimate::fit(model, values, *used, settings, observer, stop,
                          held ? estimate::WithoutUnknowns::Evaluate : estimate::WithoutUnknowns::Refuse);
        for (estimate::ParameterEstimate& e : result.parameters)
            e.unit = model::unitOfParameter(model_->parameters, e.name);
        return result;
    } catch (const estimate::FitError& e) {
        throw JobError(JobError::Kind::Fit, e.what());
    } catch (const integrate::IntegrationError& e) {
        throw JobError(JobError::Kind::Integration, modelSource_ + ": " + e.what());
    } catch (const data::DataError& e) {
        throw JobError(JobError::Kind::Data, e.what());
    } catch (const std::invalid_argument& e) {
        throw JobError(JobError::Kind::Fit, e.what());
    }
}

}  // namespace sysid::job
