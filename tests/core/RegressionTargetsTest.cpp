// Issue 29, point 3: regression targets parsed strictly (non-numbers refused with file and line)
// and the optional standardisation remembered by the run and undone at prediction.
#include <algorithm>
#include <clocale>
#include <cmath>

#include <gtest/gtest.h>

#include "Error.h"
#include "task/regression/RegressionTargets.h"

namespace bert {
namespace {

TEST(RegressionTargets, NumbersInEveryUsualFormAreRead) {
    EXPECT_EQ(parseTargetValue("3"), 3.0);
    EXPECT_EQ(parseTargetValue("-2.5"), -2.5);
    EXPECT_EQ(parseTargetValue("1e-3"), 1e-3);
    EXPECT_EQ(parseTargetValue("2.5E+2"), 250.0);
    EXPECT_EQ(parseTargetValue("+4.25"), 4.25);
    EXPECT_EQ(parseTargetValue(" 7 "), 7.0);
    EXPECT_EQ(parseTargetValue(".5"), 0.5);
    EXPECT_EQ(parseTargetValue("7."), 7.0);
    EXPECT_EQ(parseTargetValue("-0"), 0.0);
}

TEST(RegressionTargets, AnythingElseIsNotANumber) {
    for (const char* cell :
         {"",         " ",     "12abc", "abc",    "nan",    "NaN",      "inf",   "-inf",
          "infinity", "0x1A",  "1e400", "-1e400", "1e-400", "2,5",      "1 000", "+-1",
          "++1",      "+",     "-",     "1e",     "e5",     "1.2.3",    "3 kg",  "_2012_20",
          "2012_20",  "1_000", "1e39",  "-1e39",  "1e308",  "-Infinity"}) {
        EXPECT_EQ(parseTargetValue(cell), std::nullopt) << "\"" << cell << "\"";
    }
}

TEST(RegressionTargets, ParsingIgnoresTheProcessLocale) {
    // Under a locale whose decimal separator is a comma, strtod would read "2.5" as 2.
    const std::string previous = std::setlocale(LC_NUMERIC, nullptr);
    const bool switched = std::setlocale(LC_NUMERIC, "de_DE.UTF-8") != nullptr ||
                          std::setlocale(LC_NUMERIC, "fr_FR.UTF-8") != nullptr;
    EXPECT_EQ(parseTargetValue("2.5"), 2.5);
    EXPECT_EQ(parseTargetValue("2,5"), std::nullopt);
    std::setlocale(LC_NUMERIC, previous.c_str());
    if (!switched) {
        GTEST_SKIP() << "no de_DE or fr_FR locale installed: checked under the C locale only";
    }
}

std::string messageOf(std::string_view cell) {
    try {
        parseTarget(cell, "scores.csv", 17, "score");
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), "scores.csv");
        return error.what();
    }
    ADD_FAILURE() << "accepted \"" << cell << "\"";
    return {};
}

TEST(RegressionTargets, ARefusedTargetNamesFileLineAndColumn) {
    const auto bad = messageOf("12abc");
    EXPECT_NE(bad.find("scores.csv: line 17, column \"score\""), std::string::npos) << bad;
    EXPECT_NE(bad.find("\"12abc\" is not a number"), std::string::npos) << bad;
    EXPECT_NE(messageOf("").find("is empty"), std::string::npos);
    EXPECT_NE(messageOf("nan").find("\"nan\" is not a finite number"), std::string::npos);
    EXPECT_NE(messageOf("-Infinity").find("\"-Infinity\" is not a finite number"),
              std::string::npos);
    // Near a double's limit: refused by name, not a divergence blamed on the learning rate.
    const auto huge = messageOf("1.7e308");
    EXPECT_NE(huge.find("line 17, column \"score\": the target 1.7e308 is too large"),
              std::string::npos)
        << huge;
    EXPECT_NE(messageOf("_2012_20").find("\"_2012_20\" is not a number"), std::string::npos);
    // A decimal comma gets a hint.
    EXPECT_NE(messageOf("2,5").find("as a point"), std::string::npos);
    EXPECT_EQ(messageOf("1,000,000").find("as a point"), std::string::npos);
}

TEST(RegressionTargets, AColumnIsReadWithEachRowsLine) {
    const auto table =
        parseTable("text,score\n\"a\nb\",1.5\nc,-2\nd,oops\n", TableFormat::Csv, "scores.csv");
    try {
        targetsOfColumn(table, "score", "scores.csv");
        FAIL() << "\"oops\" was accepted";
    } catch (const InputError& error) {
        // The first row spans lines 2 and 3, so "oops" is on line 5.
        EXPECT_NE(std::string(error.what()).find("line 5,"), std::string::npos) << error.what();
    }
    const auto good = parseTable("text,score\na,1.5\nc,-2\n", TableFormat::Csv, "scores.csv");
    EXPECT_EQ(targetsOfColumn(good, "score", "scores.csv"), (std::vector<double>{1.5, -2.0}));
    EXPECT_THROW(targetsOfColumn(good, "target", "scores.csv"), InputError);
}

TEST(RegressionTargets, TheScalerUsesThePopulationDeviationAndIsUndone) {
    const auto scaler = TargetScaler::fit({1.0, 2.0, 3.0, 4.0});
    EXPECT_DOUBLE_EQ(scaler.mean, 2.5);
    EXPECT_DOUBLE_EQ(scaler.scale, std::sqrt(1.25));  // divided by n = 4, not 3
    for (const double target : {-3.0, 0.0, 2.5, 1e6}) {
        EXPECT_NEAR(scaler.inverse(scaler.transform(target)), target,
                    1e-12 * std::max(1.0, std::abs(target)));
    }
    EXPECT_DOUBLE_EQ(scaler.transform(2.5), 0.0);
}

TEST(RegressionTargets, AConstantTargetIsCentredNotDividedByZero) {
    const auto scaler = TargetScaler::fit({4.2, 4.2, 4.2});
    EXPECT_DOUBLE_EQ(scaler.mean, 4.2);
    EXPECT_EQ(scaler.scale, 1.0);
    EXPECT_TRUE(TargetScaler::fit({}).isIdentity());
}

// A target of tiny spread around 1e6: the scaler centres first (numpy and scikit-learn's
// StandardScaler give mean 1000000.0045 and scale 0.002872281317837912 for 1e6 + 0.001 k, k < 10),
// and training is told when a float cannot hold the spread or the target is constant.
TEST(RegressionTargets, ATinySpreadFarFromZeroStandardisesAsNumpyAndIsWarnedOf) {
    std::vector<double> targets;
    for (int k = 0; k < 10; ++k) {
        targets.push_back(1e6 + 0.001 * k);
    }
    const auto scaler = TargetScaler::fit(targets);
    EXPECT_NEAR(scaler.mean, 1000000.0045, 1e-9);
    EXPECT_NEAR(scaler.scale, 0.002872281317837912, 1e-15);
    for (const double target : targets) {
        EXPECT_NEAR(scaler.inverse(scaler.transform(target)), target, 1e-9);
    }
    // Standardised, it is learnt: nothing to say. As it is, a float reads every row as 1e6.
    EXPECT_EQ(targetSpreadWarning(targets, scaler, true, "price"), "");
    const auto raw = targetSpreadWarning(targets, {}, false, "price");
    EXPECT_NE(raw.find("the target \"price\" varies too little around its mean"), std::string::npos)
        << raw;
    EXPECT_NE(raw.find("standardise it"), std::string::npos) << raw;
    const std::vector<double> constant(5, 7.5);
    EXPECT_EQ(targetSpreadWarning(constant, TargetScaler::fit(constant), true, "price"),
              "the target \"price\" is constant (5 rows): a regression has nothing to learn, and "
              "Pearson and Spearman are undefined");
    EXPECT_EQ(targetSpreadWarning({1.0, 2.0, 3.0}, {}, false, "price"), "");
}

TEST(RegressionTargets, TheScalerIsStoredAndReadBack) {
    const auto scaler = TargetScaler::fit({10.0, 20.0, 60.0});
    const auto back = TargetScaler::fromJson(nlohmann::json::parse(scaler.toJson().dump()));
    EXPECT_EQ(back.mean, scaler.mean);
    EXPECT_EQ(back.scale, scaler.scale);
    EXPECT_THROW(TargetScaler::fromJson(nlohmann::json::parse(R"({"mean": 1})")), InputError);
    EXPECT_THROW(TargetScaler::fromJson(nlohmann::json::parse(R"({"mean": 1, "scale": 0})")),
                 InputError);
    EXPECT_THROW(TargetScaler::fromJson(nlohmann::json::parse(R"({"mean": "1", "scale": 2})")),
                 InputError);
}

}  // namespace
}  // namespace bert
