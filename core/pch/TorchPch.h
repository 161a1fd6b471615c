// Precompiled for every target that uses LibTorch: these headers dominate compile time.
#pragma once
#include <ATen/ATen.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <nlohmann/json.hpp>
