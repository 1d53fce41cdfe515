"""Data generators (synthetic) and loaders (files under data/)."""
