// Our CPU dropout (model/Dropout.h) replaces ATen's serial bernoulli_ masks: it must drop at the
// asked rate, scale the rest, follow the default generator's seed (checkpoint replay and resume
// rely on that), give the same mask on any number of threads, and leave attention as ATen
// computes it.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/utils.h>

#include "model/Dropout.h"
#include "train/MixedPrecision.h"

namespace bert {
namespace {

TEST(DropoutTest, KeepMaskHasTheAskedRateAndDoesNotDependOnThreads) {
    const int threads = at::get_num_threads();
    at::set_num_threads(1);
    const auto single = philoxKeepMask({1000, 1000}, 0.9, 1234);
    at::set_num_threads(std::max(2, threads));
    const auto parallel = philoxKeepMask({1000, 1000}, 0.9, 1234);
    at::set_num_threads(threads);
    EXPECT_TRUE(at::equal(single, parallel)) << "the mask changed with the thread count";
    EXPECT_NEAR(single.to(at::kFloat).mean().item<double>(), 0.9, 0.002);
    const auto other = philoxKeepMask({1000, 1000}, 0.9, 1235);
    EXPECT_FALSE(at::equal(single, other)) << "another seed gave the same mask";
    // Blocks are independent streams: neighbouring blocks must not repeat each other.
    const auto flat = single.reshape({-1});
    EXPECT_FALSE(at::equal(flat.slice(0, 0, 4096), flat.slice(0, 4096, 8192)));
    EXPECT_TRUE(philoxKeepMask({7, 3}, 1.0, 9).all().item<bool>());
}

TEST(DropoutTest, DropsAndScalesInTrainingAndIsTheIdentityOtherwise) {
    torch::manual_seed(3);
    const auto input = at::rand({64, 128, 96}) + 0.5;  // no zeros of its own
    const auto output = applyDropout(input, 0.25, true);
    const auto dropped = output.eq(0).to(at::kFloat).mean().item<double>();
    EXPECT_NEAR(dropped, 0.25, 0.005);
    const auto kept = output.ne(0);
    EXPECT_TRUE(at::allclose(output.masked_select(kept), input.masked_select(kept) / 0.75));
    EXPECT_TRUE(applyDropout(input, 0.25, false).is_same(input));
    EXPECT_TRUE(applyDropout(input, 0.0, true).is_same(input));
}

TEST(DropoutTest, FollowsTheDefaultGeneratorSeedAndGradientsUseTheSameMask) {
    const auto input = at::ones({32, 50});
    torch::manual_seed(11);
    const auto first = applyDropout(input, 0.5, true);
    torch::manual_seed(11);
    const auto again = applyDropout(input, 0.5, true);
    const auto next = applyDropout(input, 0.5, true);
    EXPECT_TRUE(at::equal(first, again)) << "reseeding did not reproduce the mask";
    EXPECT_FALSE(at::equal(again, next)) << "two draws in a row gave the same mask";

    auto leaf = at::ones({32, 50}).set_requires_grad(true);
    torch::manual_seed(11);
    applyDropout(leaf, 0.5, true).sum().backward();
    EXPECT_TRUE(at::equal(leaf.grad(), first)) << "backward used another mask than forward";
}

// [B, heads, S, head_dim] inputs and an additive mask hiding the last 5 keys of every row.
struct AttentionInputs {
    at::Tensor q, k, v, mask;
};

AttentionInputs attentionInputs() {
    torch::manual_seed(5);
    AttentionInputs in{at::randn({2, 4, 24, 16}), at::randn({2, 4, 24, 16}),
                       at::randn({2, 4, 24, 16}), at::zeros({2, 1, 1, 24})};
    in.mask.slice(3, 19).fill_(std::numeric_limits<float>::lowest());
    return in;
}

TEST(DropoutTest, AttentionWithDropoutIsAtensMathPathAndMask) {
    const auto in = attentionInputs();
    const auto reference = at::scaled_dot_product_attention(in.q, in.k, in.v, in.mask, 0.0);
    // A dropout this small keeps every weight, so the only difference left is the arithmetic.
    const auto ours = dotProductAttention(in.q, in.k, in.v, in.mask, 1e-12, true);
    EXPECT_LT((ours - reference).abs().max().item<double>(), 1e-5);
    // With real dropout the output moves, and backward reaches q, k and v.
    auto q = in.q.clone().set_requires_grad(true);
    const auto dropped = dotProductAttention(q, in.k, in.v, in.mask, 0.3, true);
    EXPECT_GT((dropped - reference).abs().max().item<double>(), 1e-2);
    dropped.sum().backward();
    EXPECT_GT(q.grad().abs().sum().item<double>(), 0.0);
    // Not training: ATen's kernel itself.
    EXPECT_TRUE(at::equal(dotProductAttention(in.q, in.k, in.v, in.mask, 0.3, false), reference));
}

TEST(DropoutTest, AttentionUnderBf16AutocastMatchesAtenUnderAutocast) {
    const auto in = attentionInputs();
    const auto q = in.q.to(at::kBFloat16);
    const auto k = in.k.to(at::kBFloat16);
    const auto v = in.v.to(at::kBFloat16);
    const auto mask = in.mask.to(at::kBFloat16);
    const AutocastGuard autocast(c10::DeviceType::CPU, true, at::kBFloat16);
    const auto reference = at::scaled_dot_product_attention(q, k, v, mask, 0.0);
    const auto ours = dotProductAttention(q, k, v, mask, 1e-12, true);
    EXPECT_EQ(ours.scalar_type(), at::kBFloat16);
    EXPECT_LT((ours.to(at::kFloat) - reference.to(at::kFloat)).abs().max().item<double>(), 1e-2);
}

}  // namespace
}  // namespace bert
