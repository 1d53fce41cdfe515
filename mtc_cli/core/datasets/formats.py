"""The data file formats ``mtc select`` reads (kept apart from the readers so that the
command line can name them without importing pandas, scipy or Pillow)."""

FORMATS = ("csv", "tsv", "xlsx", "parquet", "npy", "npz", "mtx", "image", "permissions")
