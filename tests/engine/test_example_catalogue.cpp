// The bundled examples as the example browser lists them: a title and a description read from
// the example files themselves, and a project's title and description kept by load and save.

#include <QtTest>

#include "engine/project/ExampleCatalogue.h"
#include "engine/project/Project.h"

#include <filesystem>
#include <string>

namespace {

using namespace sysid::project;

const std::string kExamples = SYSID_SOURCE_DIR "/resources/examples";

class TestExampleCatalogue : public QObject {
    Q_OBJECT

private slots:
    void headingIsTheLeadingCommentBlock()
    {
        const ModelHeading h = modelHeading("\n# Van der Pol oscillator\n#   x'' = mu*(1 - x^2)*x' - x\n#\n"
                                            "# Origin: textbook\n# not part\nparam mu = 1\n# not part either\n");
        QCOMPARE(h.title, std::string("Van der Pol oscillator"));
        QCOMPARE(h.description, std::string("  x'' = mu*(1 - x^2)*x' - x\n\nOrigin: textbook\nnot part"));
        const ModelHeading none = modelHeading("param a = 1\n# later\n");
        QVERIFY(none.title.empty());
        QVERIFY(none.description.empty());
        const ModelHeading blank = modelHeading("# Title only\n\n# a later block\nparam a = 1\n");
        QCOMPARE(blank.title, std::string("Title only"));
        QVERIFY(blank.description.empty());
    }

    void everyBundledExampleIsDescribed()
    {
        const std::vector<Example> examples = listExamples(kExamples);
        std::size_t files = 0;
        for (const auto& entry : std::filesystem::directory_iterator(kExamples))
            if (entry.path().extension() == ".sysid" || entry.path().extension() == ".model")
                ++files;
        QCOMPARE(examples.size(), files);
        QVERIFY(examples.size() >= 20);
        bool seenModel = false;
        for (const Example& e : examples) {
            const std::string file = std::filesystem::path(e.path).filename().string();
            QVERIFY2(!seenModel || !e.isProject, ("projects come first: " + file).c_str());
            seenModel = seenModel || !e.isProject;
            QVERIFY2(!e.title.empty() && e.title != file, ("no title: " + file).c_str());
            QVERIFY2(e.title.find('#') == std::string::npos, file.c_str());
            QVERIFY2(e.description.size() > 80, ("no description: " + file).c_str());
            QVERIFY2(e.description.find("Try:") != std::string::npos, ("nothing to try: " + file).c_str());
            QVERIFY2(!e.modelText.empty(), file.c_str());
        }
    }

    void projectKeepsTitleAndDescription()
    {
        Project p = loadProject(kExamples + "/sdof_cubic.sysid");
        QVERIFY(!p.title.empty());
        QVERIFY(p.description.find("Normann (1989)") != std::string::npos);
        p.title = "A title";
        p.description = "First paragraph.\n\nSecond paragraph.";
        const nlohmann::json json = projectToJson(p, kExamples);
        QCOMPARE(json.at("title").get<std::string>(), std::string("A title"));
        const Project back = projectFromJson(json, "copy.sysid", kExamples);
        QCOMPARE(back.title, p.title);
        QCOMPARE(back.description, p.description);

        p.title.clear();
        p.description.clear();
        const nlohmann::json bare = projectToJson(p, kExamples);
        QVERIFY(!bare.contains("title"));
        QVERIFY(!bare.contains("description"));

        nlohmann::json wrong = json;
        wrong["title"] = 3;
        try {
            projectFromJson(wrong, "wrong.sysid", kExamples);
            QFAIL("a title that is not text was accepted");
        } catch (const ProjectError& e) {
            QVERIFY2(std::string(e.what()).find("title") != std::string::npos, e.what());
        }
    }
};

}  // namespace

QTEST_GUILESS_MAIN(TestExampleCatalogue)
#include "test_example_catalogue.moc"
