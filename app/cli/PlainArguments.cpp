#include "app/cli/PlainArguments.h"

#include <map>
#include <string_view>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

struct Declared {
    const po::option_description* option;
    char shortName;  // 0: none
};

// The option with this whole long name, or with this one-letter short name ('\0': look by long name).
const po::option_description* findOption(const std::vector<Declared>& all, std::string_view longName, char shortName)
{
    for (const auto& [option, letter] : all) {
        if (shortName != 0) {
            if (letter == shortName)
                return option;
            continue;
        }
        const auto [names, count] = option->long_names();
        for (std::size_t i = 0; i < count; ++i)
            if (names[i] == longName)
                return option;
    }
    return nullptr;
}

}  // namespace

std::optional<po::variables_map> parsePlainArguments(const std::vector<std::string>& args,
                                                     const std::vector<const po::options_description*>& descriptions,
                                                     const char* positional, int positionalCount)
{
    std::vector<Declared> all;
    for (const auto* description : descriptions)
        if (description)
            for (const auto& option : description->options()) {
                const std::string shown = option->canonical_display_name(po::command_line_style::allow_dash_for_short);
                all.push_back({option.get(), shown.size() == 2 && shown[0] == '-' ? shown[1] : '\0'});
            }
    const po::option_description* positionalOption = findOption(all, positional, 0);

    std::map<std::string, boost::any> values;
    int positionals = 0;
    const auto take = [&](const po::option_description* option, const std::vector<std::string>& tokens) {
        const std::string key = option->key(std::string());
        const auto semantic = option->semantic();
        auto [value, added] = values.try_emplace(key);
        if (!added && !semantic->is_composing())
            return false;
        try {
            semantic->parse(value->second, tokens, true);
        } catch (const std::exception&) {
            return false;
        }
        return true;
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const po::option_description* option = nullptr;
        std::vector<std::string> tokens;
        bool valueGiven = false;
        if (arg.rfind("--", 0) == 0) {
            const std::size_t equals = arg.find('=');
            option = findOption(all, std::string_view(arg).substr(2, equals - 2), 0);
            if (equals != std::string::npos) {
                tokens.push_back(arg.substr(equals + 1));
                valueGiven = true;
            }
        } else if (arg.size() == 2 && arg[0] == '-' && arg[1] != '-') {
            option = findOption(all, {}, arg[1]);
        } else if (arg.size() > 1 && arg[0] == '-') {
            return std::nullopt;  // grouped or sticky short names, a negative number: program_options decides
        } else {
            if (!positionalOption || (positionalCount >= 0 && positionals >= positionalCount) ||
                !take(positionalOption, {arg}))
                return std::nullopt;
            ++positionals;
            continue;
        }
        if (!option || option->semantic()->max_tokens() > 1)
            return std::nullopt;
        const bool takesValue = option->semantic()->max_tokens() == 1;
        if (takesValue && option->semantic()->min_tokens() == 0)
            return std::nullopt;  // an implicit value
        if (valueGiven && (!takesValue || tokens.front().empty()))
            return std::nullopt;  // a value given to a switch, or "--name=" (program_options refuses both)
        if (takesValue && !valueGiven) {
            if (i + 1 >= args.size() || (args[i + 1].size() > 1 && args[i + 1][0] == '-'))
                return std::nullopt;
            tokens.push_back(args[++i]);
        }
        if (!take(option, tokens))
            return std::nullopt;
    }

    po::variables_map vm;
    for (auto& [key, value] : values)
        vm.emplace(key, po::variable_value(value, false));
    for (const auto& [option, letter] : all) {
        const std::string key = option->key(std::string());
        boost::any value;
        if (!key.empty() && !vm.count(key) && option->semantic()->apply_default(value))
            vm.emplace(key, po::variable_value(value, true));
    }
    return vm;
}

}  // namespace sysid::cli
