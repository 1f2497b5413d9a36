// The one include for OpenGL in HashScope: the glad2-generated 4.5 core loader.
#pragma once
#include <glad/gl.h>
