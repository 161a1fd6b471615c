// Calibration of single-label probabilities: expected calibration error and the reliability
// diagram's bins as Guo et al.'s reference implementation computes them, and the temperature
// that minimises the validation NLL, against tests/parity/calibration.py (PyTorch's own L-BFGS
// and scipy's bounded minimiser, apart from the engine).
#include <cmath>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/TestSupport.h"
#include "task/Calibration.h"
#include "task/TemperatureScaling.h"

namespace bert {
namespace {

// Four predictions: two at 0.9 (one right), one at 0.6 (right), one at 0.3 (wrong). Bins of
// width 1/15: 0.9 in (0.8667, 0.9333], 0.6 in (0.5333, 0.6], 0.3 in (0.2667, 0.3333].
TEST(Calibration, BinsAndEceAsTheDefinitionCountsThem) {
    const auto figures = calibrationOf({0.9, 0.9, 0.6, 0.3}, {true, false, true, false});
    ASSERT_EQ(figures.bins.size(), kCalibrationBins);
    const auto& high = figures.bins[13];
    EXPECT_EQ(high.count, 2);
    EXPECT_DOUBLE_EQ(high.confidence, 0.9);
    EXPECT_DOUBLE_EQ(high.accuracy, 0.5);
    EXPECT_EQ(figures.bins[8].count, 1) << "0.6 is 9/15: the upper edge of its bin belongs to it";
    EXPECT_EQ(figures.bins[4].count, 1);
    // 2/4 x |0.5 - 0.9| + 1/4 x |1 - 0.6| + 1/4 x |0 - 0.3|
    EXPECT_NEAR(figures.ece, 0.5 * 0.4 + 0.25 * 0.4 + 0.25 * 0.3, 1e-15);
    EXPECT_EQ(calibrationOf({}, {}).ece, 0.0) << "no predictions, no error";

    CalibrationReport report;
    report.before = figures;
    report.nllBefore = 0.7;
    report.temperature = 1.25;
    report.after = figures;
    const auto back = CalibrationReport::fromJson(report.toJson());
    ASSERT_TRUE(back);
    EXPECT_EQ(back->toJson(), report.toJson());
    EXPECT_FALSE(CalibrationReport::fromJson(nlohmann::json::object())) << "a run from before";
}

TEST(Calibration, EceBinsAndTemperatureEqualTheReference) {
    if (const auto why = test::referenceUnavailable(); !why.empty()) {
        GTEST_SKIP() << why;
    }
    // Overconfident (large logits, a third of the labels not the argmax), underconfident (small
    // logits, mostly right), ten classes, and two classes.
    struct Case {
        std::int64_t rows;
        std::int64_t classes;
        double scale;
        double wrongShare;
    };
    const std::vector<Case> cases{
        {300, 3, 6.0, 0.33}, {300, 4, 0.5, 0.1}, {500, 10, 3.0, 0.4}, {200, 2, 4.0, 0.2}};
    nlohmann::json written = nlohmann::json::array();
    std::vector<CalibrationReport> ours;
    at::manual_seed(7);
    for (const auto& c : cases) {
        const auto logits = at::randn({c.rows, c.classes}, at::kDouble) * c.scale;
        auto labels = logits.argmax(-1);
        const auto flip = at::rand({c.rows}, at::kDouble) < c.wrongShare;
        labels = at::where(flip, at::remainder(labels + 1, c.classes), labels);
        ours.push_back(calibrationReport(logits, labels));
        std::vector<std::vector<double>> rows;
        for (std::int64_t r = 0; r < c.rows; ++r) {
            const auto row = logits[r].contiguous();
            rows.emplace_back(row.data_ptr<double>(), row.data_ptr<double>() + c.classes);
        }
        const auto truth = labels.contiguous();
        written.push_back(
            {{"logits", rows},
             {"labels", std::vector<std::int64_t>(truth.data_ptr<std::int64_t>(),
                                                  truth.data_ptr<std::int64_t>() + c.rows)}});
    }
    const test::TempDir dir;
    test::writeFile(dir / "cases.json", written.dump());
    ASSERT_EQ(test::runPythonScript(
                  "tests/parity/calibration.py",
                  {(dir / "cases.json").string(), (dir / "reference.json").string()}, dir / "log"),
              0)
        << test::readFile(dir / "log");
    const auto reference = nlohmann::json::parse(test::readFile(dir / "reference.json"));
    ASSERT_EQ(reference.size(), cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const auto& want = reference[i];
        const auto& got = ours[i];
        SCOPED_TRACE("case " + std::to_string(i));
        EXPECT_NEAR(got.before.ece, want["ece"].get<double>(), 1e-9);
        ASSERT_TRUE(got.nllBefore);
        EXPECT_NEAR(*got.nllBefore, want["nll"].get<double>(), 1e-9);
        ASSERT_EQ(got.before.bins.size(), want["bins"].size());
        for (std::size_t b = 0; b < got.before.bins.size(); ++b) {
            EXPECT_EQ(got.before.bins[b].count, want["bins"][b]["count"].get<std::int64_t>());
            EXPECT_NEAR(got.before.bins[b].confidence, want["bins"][b]["confidence"].get<double>(),
                        1e-12);
            EXPECT_NEAR(got.before.bins[b].accuracy, want["bins"][b]["accuracy"].get<double>(),
                        1e-12);
        }
        ASSERT_TRUE(got.temperature) << got.problem;
        const double t = want["temperature"].get<double>();
        EXPECT_NEAR(*got.temperature, t, 1e-7 * t) << "PyTorch's L-BFGS, same options";
        EXPECT_NEAR(*got.temperature, want["temperature_scipy"].get<double>(), 1e-5 * t)
            << "scipy's minimum";
        EXPECT_NEAR(got.after.ece, want["calibrated_ece"].get<double>(), 1e-9);
        EXPECT_NEAR(got.nllAfter, want["calibrated_nll"].get<double>(), 1e-9);
        EXPECT_LE(got.nllAfter, *got.nllBefore) << "the minimum is no worse than T = 1";
    }
    EXPECT_GT(*ours[0].temperature, 1.0) << "overconfident: softened";
    EXPECT_LT(*ours[1].temperature, 1.0) << "underconfident: sharpened";
    EXPECT_LT(ours[0].after.ece, ours[0].before.ece);
}

// A set predicted without an error, ever more sure: the loss falls as T goes to 0, so no
// temperature minimises it; the report says so and keeps the figures at T = 1.
TEST(Calibration, ASetPredictedWithoutErrorHasNoTemperatureAndSaysWhy) {
    const auto labels = at::arange(40, at::kLong) % 3;
    const auto logits = at::one_hot(labels, 3).to(at::kDouble) * 8.0;
    const auto report = calibrationReport(logits, labels);
    EXPECT_FALSE(report.temperature);
    EXPECT_NE(report.problem.find("temperature"), std::string::npos) << report.problem;
    EXPECT_TRUE(report.toJson()["temperature"].is_null());
    EXPECT_EQ(report.before.bins.back().count, 40);
}

}  // namespace
}  // namespace bert
