"""Model-order selection criteria, one module per principle."""
