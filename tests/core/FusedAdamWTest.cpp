// FusedAdamW must be a drop-in for torch::optim::AdamW: same update, same state objects
// (checkpoints and memory accounting read them), groups with their own learning rate and decay.
#include <gtest/gtest.h>
#include <torch/nn/utils/clip_grad.h>
#include <torch/types.h>
#include <torch/utils.h>

#include "train/FusedAdamW.h"

namespace bert {
namespace {

using torch::optim::AdamWOptions;
using torch::optim::AdamWParamState;
using torch::optim::OptimizerParamGroup;

// Two groups as the trainer builds them (decayed weights; undecayed biases and norms), one
// parameter of the second group left without a gradient as a frozen one would be.
struct Parameters {
    std::vector<torch::Tensor> decayed;
    std::vector<torch::Tensor> undecayed;
};

Parameters makeParameters(std::int64_t seed) {
    torch::manual_seed(seed);
    Parameters p;
    p.decayed = {torch::randn({64, 32}),
                 torch::randn({3, 5, 7}).transpose(0, 2)};  // one non-contiguous
    p.undecayed = {torch::randn({32}), torch::randn({16})};
    for (auto& t : p.decayed) {
        t.set_requires_grad(true);
    }
    for (auto& t : p.undecayed) {
        t.set_requires_grad(true);
    }
    return p;
}

std::vector<OptimizerParamGroup> groupsOf(const Parameters& p) {
    std::vector<OptimizerParamGroup> groups;
    groups.emplace_back(p.decayed,
                        std::make_unique<AdamWOptions>(AdamWOptions(1e-3).weight_decay(0.01)));
    groups.emplace_back(p.undecayed,
                        std::make_unique<AdamWOptions>(AdamWOptions(1e-3).weight_decay(0.0)));
    return groups;
}

void setGradients(Parameters& p, int step) {
    torch::manual_seed(1000 + step);
    for (auto* list : {&p.decayed, &p.undecayed}) {
        for (auto& t : *list) {
            t.mutable_grad() = torch::randn_like(t);
        }
    }
    p.undecayed[1].mutable_grad() = torch::Tensor();  // frozen: never a gradient
}

TEST(FusedAdamWTest, MatchesLibTorchAdamWOverStepsWithAChangingLearningRate) {
    auto reference = makeParameters(7);
    auto fused = makeParameters(7);
    torch::optim::AdamW referenceOptimizer(groupsOf(reference), AdamWOptions(1e-3));
    FusedAdamW fusedOptimizer(groupsOf(fused), AdamWOptions(1e-3));
    for (int step = 0; step < 6; ++step) {
        const double lr = 1e-3 * (step + 1) / 6.0;  // a warm-up schedule writes lr into every group
        for (auto* optimizer : std::initializer_list<torch::optim::Optimizer*>{&referenceOptimizer,
                                                                               &fusedOptimizer}) {
            for (auto& group : optimizer->param_groups()) {
                static_cast<AdamWOptions&>(group.options()).lr(lr);
            }
        }
        setGradients(reference, step);
        setGradients(fused, step);
        referenceOptimizer.step();
        fusedOptimizer.step();
    }
    for (std::size_t i = 0; i < reference.decayed.size(); ++i) {
        EXPECT_LT((reference.decayed[i] - fused.decayed[i]).abs().max().item<double>(), 1e-6)
            << "decayed " << i;
    }
    for (std::size_t i = 0; i < reference.undecayed.size(); ++i) {
        EXPECT_LT((reference.undecayed[i] - fused.undecayed[i]).abs().max().item<double>(), 1e-6)
            << "undecayed " << i;
    }
    // The weights moved, so the comparison above compared updates, not two untouched copies.
    EXPECT_GT((fused.decayed[0] - makeParameters(7).decayed[0]).abs().max().item<double>(), 1e-3);
}

TEST(FusedAdamWTest, KeepsLibTorchStateObjectsAndSkipsParametersWithoutGradients) {
    auto p = makeParameters(3);
    FusedAdamW optimizer(groupsOf(p), AdamWOptions(1e-3));
    for (int step = 0; step < 3; ++step) {
        setGradients(p, step);
        optimizer.step();
    }
    const auto& state = optimizer.state();
    ASSERT_EQ(state.count(p.undecayed[1].unsafeGetTensorImpl()), 0U)
        << "a frozen parameter got moments";
    const auto& moments =
        static_cast<const AdamWParamState&>(*state.at(p.decayed[1].unsafeGetTensorImpl()));
    EXPECT_EQ(moments.step(), 3);
    EXPECT_EQ(moments.exp_avg().sizes(), p.decayed[1].sizes());
    EXPECT_GT(moments.exp_avg_sq().abs().sum().item<double>(), 0.0);
}

TEST(FusedAdamWTest, ContinuesFromRestoredState) {
    // Resume writes AdamWParamState objects with a step count; the next step must use them.
    auto reference = makeParameters(5);
    auto resumed = makeParameters(5);
    torch::optim::AdamW referenceOptimizer(groupsOf(reference), AdamWOptions(1e-3));
    FusedAdamW first(groupsOf(resumed), AdamWOptions(1e-3));
    for (int step = 0; step < 2; ++step) {
        setGradients(reference, step);
        setGradients(resumed, step);
        referenceOptimizer.step();
        first.step();
    }
    FusedAdamW second(groupsOf(resumed), AdamWOptions(1e-3));
    for (const auto& [key, value] : first.state()) {
        const auto& moments = static_cast<const AdamWParamState&>(*value);
        auto copy = std::make_unique<AdamWParamState>();
        copy->step(moments.step());
        copy->exp_avg(moments.exp_avg().clone());
        copy->exp_avg_sq(moments.exp_avg_sq().clone());
        second.state()[key] = std::move(copy);
    }
    setGradients(reference, 2);
    setGradients(resumed, 2);
    referenceOptimizer.step();
    second.step();
    EXPECT_LT((reference.decayed[0] - resumed.decayed[0]).abs().max().item<double>(), 1e-6);
}

TEST(FusedAdamWTest, ADivisorFoldsClippingIntoOneStepOnly) {
    // Gradient clipping's factor applied inside the kernel equals clipping the gradients
    // first (LibTorch's clip_grad_norm_ then the step), and lasts one step.
    auto reference = makeParameters(9);
    auto folded = makeParameters(9);
    torch::optim::AdamW referenceOptimizer(groupsOf(reference), AdamWOptions(1e-3));
    FusedAdamW foldedOptimizer(groupsOf(folded), AdamWOptions(1e-3));
    constexpr double kMaxNorm = 0.5;  // far below the random gradients' norm: always clipped
    for (int step = 0; step < 3; ++step) {
        setGradients(reference, step);
        setGradients(folded, step);
        std::vector<torch::Tensor> all = reference.decayed;
        all.insert(all.end(), reference.undecayed.begin(), reference.undecayed.end());
        const double norm = torch::nn::utils::clip_grad_norm_(all, kMaxNorm);
        ASSERT_GT(norm, 10 * kMaxNorm);
        referenceOptimizer.step();
        if (step < 2) {
            foldedOptimizer.divideNextGradientsBy((norm + 1e-6) / kMaxNorm);
        }  // the third step is not asked to divide, and must not
        foldedOptimizer.step();
        if (step == 2) {
            // The reference clipped; the folded run did not: they part here.
            EXPECT_GT((reference.decayed[0] - folded.decayed[0]).abs().max().item<double>(), 1e-6);
        } else {
            EXPECT_LT((reference.decayed[0] - folded.decayed[0]).abs().max().item<double>(), 1e-6)
                << "step " << step;
            EXPECT_LT((reference.undecayed[0] - folded.undecayed[0]).abs().max().item<double>(),
                      1e-6);
        }
    }
}

TEST(FusedAdamWTest, TheGradientNormIsClipGradNormsOverEveryParameterWithAGradient) {
    auto parameters = makeParameters(10);
    setGradients(parameters, 1);
    std::vector<torch::Tensor> all = parameters.decayed;
    all.insert(all.end(), parameters.undecayed.begin(), parameters.undecayed.end());
    auto withoutGradient = torch::ones({3}, torch::requires_grad());
    std::vector<torch::Tensor> listed = all;
    listed.push_back(withoutGradient);  // frozen: no gradient, not counted
    const double ours = gradientNorm(listed).item<double>();
    // LibTorch's clip_grad_norm_ with a limit it never reaches reports the total norm.
    const double reference = torch::nn::utils::clip_grad_norm_(all, 1e30);
    EXPECT_NEAR(ours, reference, 1e-6 * reference);
    EXPECT_EQ(gradientNorm({withoutGradient}).item<double>(), 0.0);
}

TEST(FusedAdamWTest, RefusesAmsgrad) {
    auto p = makeParameters(1);
    EXPECT_THROW(FusedAdamW(p.decayed, AdamWOptions(1e-3).amsgrad(true)), std::invalid_argument);
}

}  // namespace
}  // namespace bert
