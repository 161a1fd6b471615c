#pragma once

// Every encoder family we implement, one line each, BERT first: the only list outside its folder
// that a new family joins (docs/families.md). FAMILY(id) names the family's parts by convention,
// each defined in the family's folder, model/<family>/:
//   id##Family()   its table (model/FamilyTraits.h): config.json keys, defaults, counts, names;
//                  in <Family>Family.cpp, without LibTorch (bert_base)
//   id##Modules()  its encoder as LibTorch modules (model/FamilyModules.h); in <Family>Model.cpp
//   id##Graph()    its encoder as an ONNX graph (model/onnx/FamilyGraph.h); in <Family>Graph.cpp,
//                  built only where libonnx-dev is (core/CMakeLists.txt)
// The classifiers over the encoder (sequence and token heads) are composed once for every family
// (model/Classifiers.cpp, model/onnx/HeadGraph.cpp) from the table's head description.
// tests/core/FamilyRegistryTest.cpp checks that every family listed here provides every part.

#define BERT_STUDIO_FAMILIES(FAMILY) \
    FAMILY(bert)                     \
    FAMILY(roberta)                  \
    FAMILY(distilBert)               \
    FAMILY(electra)                  \
    FAMILY(modernBert)               \
    FAMILY(mpnet)                    \
    FAMILY(deberta)                  \
    FAMILY(euroBert)
