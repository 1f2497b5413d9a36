// The Code view as a figure for print: the code an operation ran, each region under its file and
// line range, in DejaVu Sans Mono with the file's line numbers; the lines that decided marked and
// numbered in the order they decided (the last, which ended the operation, marked darker); lines
// far from any decision folded into one "..." line; then each decision in words.
#pragma once
#include "app/teach/code_walkthrough.hpp"
#include "visualizers/figure/figure.hpp"

namespace hs::app {

fig::figure code_figure(const code_walkthrough& w);

}  // namespace hs::app
