"""DISTANCE() and GEOLOCATION(): location-based SOQL on compound address and geolocation fields.

SOQL and SOSL Reference, "Location-Based SOQL Queries"
(https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_geolocate.htm):

- ``DISTANCE(location, GEOLOCATION(latitude, longitude), 'mi' | 'km')`` is the distance between
  a location field (a geolocation field, or a standard address whose latitude and longitude a
  geocoding service filled) and a point or another location field; the field comes first;
- it is written in WHERE, compared with ``<`` or ``>`` only (within or beyond a radius), in
  ORDER BY (nearest first) and in the SELECT clause (the page's considerations), not in
  GROUP BY; GEOLOCATION() is written only inside DISTANCE();
- a record without coordinates has no distance: it matches neither ``<`` nor ``>``, sorts as a
  null and answers null in SELECT.

Selected, the distance is a number of the record keyed by its alias (``DISTANCE(...) dist``,
an alias written in an ordinary records query, as Apex code does in
https://github.com/aheber/tree-sitter-sfapex/issues/52), or, unaliased, ``expr0``, ``expr1`` ... in SELECT order, the
names Salesforce gives every unaliased expression of a result (modelled on "Aggregate
Functions"; the Location page shows no unaliased answer). The number is the full double,
unrounded, as REST writes a double field.

The distance is the great-circle (haversine) distance on a sphere of the Earth's mean radius,
6,371.0088 km (3,958.7613 mi): the formula Salesforce's DISTANCE formula function documents.
The wording of the errors for arguments of the wrong kind is modelled (the syntax error at
the argument, or "unexpected token" at a unit other than 'mi' or 'km').
"""

from __future__ import annotations

from crmarena_sf.emulator.soql.dialect import SOQL
from crmarena_sf.emulator.soql.errors import malformed
from crmarena_sf.emulator.soql.functions.context import Typed, call
from crmarena_sf.emulator.soql.functions.registry import (
    ARGUMENT,
    NUMBER,
    OPERAND,
    ORDER_BY,
    SELECT,
    STRING,
    WHERE,
    FunctionCall,
    SoqlFunction,
    function_of,
    register,
)
from crmarena_sf.emulator.soql.nodes import FieldPath, offset_of
from crmarena_sf.emulator.soql.resolve import column
from sqlglot import exp

EARTH_RADIUS = {"km": 6371.0088, "mi": 3958.7613}
_DOC = "sforce_api_calls_soql_geolocate.htm"


def is_location(f) -> bool:
    """A geolocation field, or an address (its latitude and longitude make it a location)."""
    return f is not None and f.type in ("location", "address")


def _check_distance(node: exp.Anonymous, fields: list, is_grouped) -> None:
    first, second, unit = node.expressions
    if not isinstance(first, FieldPath) or not is_location(fields[0]):
        raise malformed(f"unexpected token: '{first.sql(dialect=SOQL)}'", offset_of(first))
    geolocation = function_of(second)
    if not (geolocation is not None and geolocation.name == "GEOLOCATION") and not (
        isinstance(second, FieldPath) and is_location(fields[1])
    ):
        raise malformed(f"unexpected token: '{second.sql(dialect=SOQL)}'", offset_of(second))
    if unit.this not in EARTH_RADIUS:
        raise malformed(f"unexpected token: '{unit.this}'", offset_of(unit))


def _check_geolocation(node: exp.Anonymous, fields: list, is_grouped) -> None:
    """Latitudes lie within ±90 degrees, longitudes within ±180 (modelled wording)."""
    latitude, longitude = (float(n.this) for n in node.expressions)
    if abs(latitude) > 90:
        raise malformed(f"unexpected token: '{node.expressions[0].this}'", offset_of(node.expressions[0]))
    if abs(longitude) > 180:
        raise malformed(f"unexpected token: '{node.expressions[1].this}'", offset_of(node.expressions[1]))


def _coordinates(c: FunctionCall, argument: exp.Expression) -> tuple[exp.Expression, exp.Expression]:
    """(latitude, longitude) of a location argument: a field's components, or GEOLOCATION's numbers."""
    if isinstance(argument, FieldPath):
        resolved = argument.meta["resolved"]
        obj, alias = resolved.node.targets[0]
        components = obj.compound_components(resolved.field.name).values()
        latitude = next(n for n in components if "latitude" in n.lower())
        longitude = next(n for n in components if "longitude" in n.lower())
        return column(alias, latitude), column(alias, longitude)
    latitude, longitude = argument.expressions
    return _double(latitude), _double(longitude)


def _double(value: exp.Expression) -> exp.Expression:
    return exp.Cast(this=value.copy(), to=exp.DataType.build(exp.DataType.Type.DOUBLE))


def distance(c: FunctionCall) -> Typed:
    """The haversine distance between the two locations, in the unit asked for."""
    first, second, unit = c.arguments
    lat1, lon1 = _coordinates(c, first)
    lat2, lon2 = _coordinates(c, second)

    def radians(value: exp.Expression) -> exp.Expression:
        return call("radians", value)

    def half_sine_squared(a: exp.Expression, b: exp.Expression) -> exp.Expression:
        half = exp.Div(
            this=exp.Paren(this=exp.Sub(this=radians(a), expression=radians(b))),
            expression=exp.Literal.number(2),
        )
        return exp.Pow(this=call("sin", half), expression=exp.Literal.number(2))

    inner = exp.Add(
        this=half_sine_squared(lat2, lat1),
        expression=exp.Mul(
            this=exp.Mul(this=call("cos", radians(lat1)), expression=call("cos", radians(lat2))),
            expression=half_sine_squared(lon2, lon1),
        ),
    )
    # Rounding may take antipodal points just past 1, outside asin's domain; a missing coordinate stays null.
    clamped = exp.Case(
        ifs=[
            exp.If(
                this=exp.GT(this=inner.copy(), expression=exp.Literal.number(1)), true=exp.Literal.number(1)
            )
        ],
        default=inner,
    )
    central_angle = exp.Mul(this=exp.Literal.number(2), expression=call("asin", call("sqrt", clamped)))
    return Typed(
        exp.Mul(this=exp.Literal.number(EARTH_RADIUS[unit.this]), expression=central_angle), "double"
    )


def geolocation(c: FunctionCall) -> Typed:  # only ever read by DISTANCE, which takes its numbers itself
    latitude, longitude = c.arguments
    return Typed(call("struct_pack", _double(latitude), _double(longitude)), "location")


register(
    SoqlFunction(
        "DISTANCE",
        (OPERAND, OPERAND, STRING),
        distance,
        clauses=frozenset({SELECT, WHERE, ORDER_BY}),
        record_value=True,
        compound_arguments=True,
        operators=frozenset({exp.LT, exp.GT}),
        check=_check_distance,
        doc=_DOC,
    ),
    SoqlFunction(
        "GEOLOCATION",
        (NUMBER, NUMBER),
        geolocation,
        clauses=frozenset({ARGUMENT}),
        check=_check_geolocation,
        doc=_DOC,
    ),
)
