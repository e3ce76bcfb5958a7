#include "app/cli/StageOptions.h"

#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/ParameterOverrides.h"

#include <algorithm>
#include <string>
#include <variant>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

using Stage = estimate::OptimalEstimationStage;
using StageField = core::Field<Stage>;

std::string optionOf(const StageField& field)
{
    return std::string(field.names.option);
}

// "integrator=NAME (the integration method of the stage: dopri5 | ...), steps=N (...)"
std::string stageNamesHelp()
{
    std::string text;
    for (const auto& field : estimate::optimalEstimationStageFields()) {
        text += (text.empty() ? "" : "; ") + optionOf(field) + ": " + std::string(field.names.help);
        if (const auto* choice = std::get_if<core::ChoiceAccess<Stage>>(&field.access))
            text += " (" + choice->choices.list(" | ") + ")";
    }
    return text;
}

bool parseFlag(const std::string& text, const std::string& subject)
{
    if (text == "true" || text == "on" || text == "yes" || text == "1")
        return true;
    if (text == "false" || text == "off" || text == "no" || text == "0")
        return false;
    throw UsageError(subject + ": expected true or false, got '" + text + "'");
}

void setField(const StageField& field, Stage& stage, const std::string& text, const std::string& subject)
{
    std::visit(
        [&](const auto& a) {
            using A = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<A, core::NumberAccess<Stage>>) {
                a.ref(stage) = parseNumber(text, subject);
            } else if constexpr (std::is_same_v<A, core::CountAccess<Stage>>) {
                a.ref(stage) = parseCount(text, subject);
            } else if constexpr (std::is_same_v<A, core::FlagAccess<Stage>>) {
                a.ref(stage) = parseFlag(text, subject);
            } else if constexpr (std::is_same_v<A, core::TextAccess<Stage>>) {
                a.ref(stage) = text;
            } else if constexpr (std::is_same_v<A, core::ChoiceAccess<Stage>>) {
                const auto value = a.choices.parse(text);
                if (!value || !a.choices.accepts(*value))
                    throw UsageError(a.choices.mustBe(subject, text));
                a.set(stage, *value);
            } else {
                throw UsageError(subject + ": not a setting of one value");
            }
        },
        field.access);
}

}  // namespace

void addStageOptions(po::options_description& options, const NamedOptions& named)
{
    const std::string stageHelp =
        "K:NAME=VALUE[,NAME=VALUE...]: a setting of stage K of the loose-to-tight schedule (Rutten 1993, sec. 5.4; "
        "repeatable; K one past the last adds a copy of the last stage). Names: " +
        stageNamesHelp() + ". Default schedule: " + estimate::scheduleText(estimate::defaultOptimalEstimationStages());
    // clang-format off
    NamedOptionsInit(options, named)
        ("stages", po::value<long long>(), "keep the first N stages of the schedule (more: copies of the last one)")
        ("stage", po::value<std::vector<std::string>>()->composing(), stageHelp.c_str());
    // clang-format on
}

void applyStageOptions(const po::variables_map& vm, std::vector<estimate::OptimalEstimationStage>& stages)
{
    if (vm.count("stages")) {
        const std::size_t count = countOption(vm, "stages", 1);
        while (stages.size() < count)
            stages.push_back(stages.back());
        stages.resize(count);
    }
    const auto& fields = estimate::optimalEstimationStageFields();
    for (const auto& item : repeated(vm, "stage")) {
        const auto colon = item.find(':');
        if (colon == std::string::npos || colon == 0)
            throw UsageError("--stage " + item + ": expected K:NAME=VALUE[,NAME=VALUE...], e.g. 1:steps=8");
        const std::size_t k = parseCount(item.substr(0, colon), "--stage " + item);
        if (k < 1 || k > stages.size() + 1)
            throw UsageError("--stage " + item + ": the schedule has " + std::to_string(stages.size()) +
                             " stages; K must be 1 to " + std::to_string(stages.size() + 1) +
                             " (one past the last adds a stage)");
        if (k == stages.size() + 1)
            stages.push_back(stages.back());
        Stage& stage = stages[k - 1];
        std::string rest = item.substr(colon + 1);
        std::size_t start = 0;
        do {
            const std::size_t end = std::min(rest.find(',', start), rest.size());
            const std::string assignment = rest.substr(start, end - start);
            const std::string place = "--stage " + std::to_string(k);
            const auto [name, value] = splitAssignment(assignment, place, "K:NAME=VALUE");
            const StageField* field = nullptr;
            std::string known;
            for (const auto& f : fields) {
                known += (known.empty() ? "" : ", ") + optionOf(f);
                if (optionOf(f) == name)
                    field = &f;
            }
            if (!field)
                throw UsageError(place + ": unknown stage setting '" + name + "' (known: " + known + ")");
            setField(*field, stage, value, place + ":" + name);
            start = end + 1;
        } while (start <= rest.size());
    }
    try {
        estimate::validateStages(stages);
    } catch (const core::SettingError& e) {
        // "stages.K.KEY": name it as it is typed, --stage K:OPTION.
        const std::string& key = e.key();
        const auto dot = key.find('.', 7);
        if (key.rfind("stages.", 0) == 0 && dot != std::string::npos) {
            const std::string k = key.substr(7, dot - 7);
            if (const auto* field = core::findField(fields, key.substr(dot + 1)))
                throw UsageError("--stage " + k + ":" + optionOf(*field) + ": " + e.expectation());
        }
        throw UsageError(e.what());
    }
}

}  // namespace sysid::cli
