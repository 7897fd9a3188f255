"""Columns for Connection.register from a pandas DataFrame or a dict of numpy arrays.

Each column becomes (name, contiguous 1-d numpy array, NULL mask or None, kind), the form the
extension copies into record batches (python/src/frame_import.h). NULL is whatever pandas
calls missing (None, NaN, NaT, pd.NA); datetime64 columns become TIMESTAMP_NTZ, tz-aware ones
TIMESTAMP (converted to UTC), datetime64[D] DATE.
"""

import sys

import numpy as np

from . import _shoal


def _datetime_column(values, tz_aware):
    """int64 microseconds (or days) and the kind for a datetime64 array."""
    unit = np.datetime_data(values.dtype)[0]
    if unit == "D":
        return values.astype("datetime64[D]").view("int64"), "date"
    micros = values.astype("datetime64[us]").view("int64")
    return micros, "timestamp" if tz_aware else "timestamp_ntz"


def _from_series(name, series):
    import pandas as pd

    mask = series.isna().to_numpy(dtype=bool)
    dtype = series.dtype
    if isinstance(dtype, pd.DatetimeTZDtype):
        values = series.dt.tz_convert("UTC").dt.tz_localize(None).to_numpy()
        data, kind = _datetime_column(values, True)
    elif dtype.kind == "M":
        data, kind = _datetime_column(series.to_numpy(), False)
    elif isinstance(dtype, pd.api.extensions.ExtensionDtype) and dtype.kind in "iufb":
        # Nullable pandas dtypes (Int64, boolean, Float64, ...): their numpy dtype with a mask.
        fill = False if dtype.kind == "b" else 0
        data, kind = series.to_numpy(dtype=dtype.numpy_dtype, na_value=fill), ""
    elif dtype.kind in "iufb":
        data, kind = series.to_numpy(), ""
    else:
        data, kind = series.to_numpy(dtype=object), ""
    if not mask.any():
        mask = None
    return (str(name), np.ascontiguousarray(data), mask, kind)


def _from_array(name, values):
    if isinstance(values, (list, tuple)):
        arr = np.empty(len(values), dtype=object)  # values as they are: ints, str, lists, ...
        for i, v in enumerate(values):
            arr[i] = v
        return (str(name), arr, None, "")
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise _shoal.InvalidArgument("register: column %s must be 1-d" % name)
    mask = None
    if isinstance(values, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(values)
        arr = np.ma.getdata(values)
    if arr.dtype.kind == "M":
        data, kind = _datetime_column(arr, False)
        nat = np.isnat(arr)
        if nat.any():
            mask = nat if mask is None else (mask | nat)
        return (str(name), np.ascontiguousarray(data), mask, kind)
    if arr.dtype.kind not in "iufbO":
        arr = arr.astype(object)
    return (str(name), np.ascontiguousarray(arr), mask, "")


def is_frame(obj):
    """True for what columns() takes: a dict or a pandas DataFrame."""
    if isinstance(obj, dict):
        return True
    pd = sys.modules.get("pandas")  # a DataFrame exists only once pandas was imported
    return pd is not None and isinstance(obj, pd.DataFrame)


def is_dataframe(obj):
    """True for a pandas DataFrame (not importing pandas)."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(obj, pd.DataFrame)


def columns(obj):
    """The register columns of a pandas DataFrame or a dict of 1-d arrays / lists."""
    if isinstance(obj, dict):
        return [_from_array(k, v) for k, v in obj.items()]
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is optional for dicts
        pd = None
    if pd is not None and isinstance(obj, pd.DataFrame):
        if len(set(map(str, obj.columns))) != len(obj.columns):
            raise _shoal.InvalidArgument("register: the DataFrame has duplicate column names")
        return [_from_series(name, obj[name]) for name in obj.columns]
    raise _shoal.InvalidArgument("register takes a pandas DataFrame or a dict of arrays, not %s" % type(obj).__name__)
