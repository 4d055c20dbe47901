// Placeholder translation unit so the library exists before the first widget lands.
namespace sb::ui { int uiLibraryMarker() { return 1; } }
