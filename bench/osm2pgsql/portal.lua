-- osm2pgsql flex style: the baseline of bench/geo-import.mjs. It writes from an .osm.pbf the tables the
-- portal's importer (libs/geo/src/osm/import.ts) fills, with the same readings of the tags
-- (libs/geo/src/osm/tags.ts), so the two can be timed side by side on the same file:
--
--   addresses  addr:* nodes, and closed ways at their centroid: house number, its number, street, unit,
--              suburb, town, postal code (padded to 4 digits; not a South African code: left empty), point
--   streets    one row per street name within suburb and town, as the portal groups addresses into
--              geo.streets (kept in a Lua table: one row the first time a name is seen)
--   street_lines  highway=* ways with a name, as lines (the portal's importer reads none)
--   places     place=city/town/village (town) and suburb/neighbourhood (suburb) nodes with a name
--   buildings  closed building=* ways: kind, levels, height, roof, built_on/demolished_on from
--              start_date/end_date, polygon
--
-- POIs, farms and lifecycle-prefixed buildings, which the portal also reads, are not in the generated
-- extract and are left out here. Usage (bench/geo-import.mjs runs it):
--   osm2pgsql --output=flex --style=bench/osm2pgsql/portal.lua --create -d DB world.osm.pbf

local tables = {}

tables.addresses = osm2pgsql.define_table({
    name = 'addresses',
    ids = { type = 'any', id_column = 'osm_id', type_column = 'osm_type' },
    columns = {
        { column = 'house_number', type = 'text', not_null = true },
        { column = 'number_value', type = 'int4' },
        { column = 'street_name', type = 'text', not_null = true },
        { column = 'unit', type = 'text' },
        { column = 'suburb', type = 'text', not_null = true },
        { column = 'town', type = 'text', not_null = true },
        { column = 'postal_code', type = 'text' },
        { column = 'point', type = 'point', projection = 4326, not_null = true },
    },
})

tables.streets = osm2pgsql.define_table({
    name = 'streets',
    ids = { type = 'any', id_column = 'osm_id', type_column = 'osm_type' },
    columns = {
        { column = 'name', type = 'text', not_null = true },
        { column = 'suburb', type = 'text', not_null = true },
        { column = 'town', type = 'text', not_null = true },
    },
})

tables.street_lines = osm2pgsql.define_way_table('street_lines', {
    { column = 'highway', type = 'text', not_null = true },
    { column = 'name', type = 'text', not_null = true },
    { column = 'geom', type = 'linestring', projection = 4326, not_null = true },
})

tables.places = osm2pgsql.define_node_table('places', {
    { column = 'kind', type = 'text', not_null = true },
    { column = 'name', type = 'text', not_null = true },
    { column = 'population', type = 'int4' },
    { column = 'point', type = 'point', projection = 4326, not_null = true },
})

tables.buildings = osm2pgsql.define_way_table('buildings', {
    { column = 'kind', type = 'text', not_null = true },
    { column = 'levels', type = 'int4', not_null = true },
    { column = 'height_m', type = 'real', not_null = true },
    { column = 'roof', type = 'text', not_null = true },
    { column = 'built_on', sql_type = 'date' },
    { column = 'demolished_on', sql_type = 'date' },
    { column = 'geom', type = 'polygon', projection = 4326, not_null = true },
})

local PLACE_KINDS = { city = 'town', town = 'town', village = 'town', suburb = 'suburb', neighbourhood = 'suburb' }

local function trim(value)
    if value == nil then return nil end
    local t = value:match('^%s*(.-)%s*$')
    if t == '' then return nil end
    return t
end

-- A South African postal code: 1 to 4 digits, padded to 4 (the portal's padPostalCode).
local function postal_code(value)
    local t = trim(value)
    if t and t:match('^%d%d?%d?%d?$') then return string.rep('0', 4 - #t) .. t end
    return nil
end

-- YYYY, YYYY-MM or YYYY-MM-DD as a day (a year or month as its first day); anything else nil.
local function osm_day(value)
    local t = trim(value)
    if not t then return nil end
    local y, m, d = t:match('^(%d%d%d%d)%-(%d%d)%-(%d%d)$')
    if not y then y, m = t:match('^(%d%d%d%d)%-(%d%d)$'); d = '01' end
    if not y then y = t:match('^(%d%d%d%d)$'); m = '01'; d = '01' end
    if not y then return nil end
    local time = os.time({ year = tonumber(y), month = tonumber(m), day = tonumber(d), hour = 12 })
    if os.date('%Y-%m-%d', time) ~= y .. '-' .. m .. '-' .. d then return nil end
    return y .. '-' .. m .. '-' .. d
end

local seen_streets = {}

-- The address of an element with addr:* tags (and its street row the first time), into `geom`.
local function add_address(object, point)
    local tags = object.tags
    if tags['addr:interpolation'] then return end
    local house_number = trim(tags['addr:housenumber'])
    local street = trim(tags['addr:street'])
    if not house_number or not street then return end
    local digits = house_number:match('%d+')
    local suburb = trim(tags['addr:suburb'] or tags['addr:neighbourhood']) or ''
    local town = trim(tags['addr:city'] or tags['addr:town'] or tags['addr:municipality']) or ''
    tables.addresses:insert({
        house_number = house_number,
        number_value = digits and math.min(tonumber(digits), 2147483647) or nil,
        street_name = street,
        unit = trim(tags['addr:unit']),
        suburb = suburb,
        town = town,
        postal_code = postal_code(tags['addr:postcode']),
        point = point,
    })
    local key = street:lower() .. '|' .. suburb:lower() .. '|' .. town:lower()
    if not seen_streets[key] then
        seen_streets[key] = true
        tables.streets:insert({ name = street, suburb = suburb, town = town })
    end
end

function osm2pgsql.process_node(object)
    local tags = object.tags
    if tags['addr:housenumber'] or tags['addr:street'] then add_address(object, object:as_point()) end
    local kind = tags.place and PLACE_KINDS[tags.place]
    local name = trim(tags.name)
    if kind and name then
        local digits = tags.population and tags.population:gsub('[%s,.]', '') or ''
        tables.places:insert({
            kind = kind,
            name = name,
            population = digits:match('^%d+$') and math.min(tonumber(digits), 2147483647) or 0,
            point = object:as_point(),
        })
    end
end

function osm2pgsql.process_way(object)
    local tags = object.tags
    local highway = tags.highway
    local name = trim(tags.name)
    if highway and name and not object.is_closed then
        tables.street_lines:insert({ highway = highway, name = name, geom = object:as_linestring() })
    end
    if not object.is_closed then return end
    if tags['addr:housenumber'] or tags['addr:street'] then
        add_address(object, object:as_polygon():centroid())
    end
    local building = trim(tags.building)
    if building and building ~= 'no' then
        local levels = tonumber(tags['building:levels'] or '')
        levels = (levels and levels >= 1) and math.min(math.floor(levels + 0.5), 200) or 1
        local height = tonumber((tags.height or ''):match('^%s*(%d+%.?%d*)%s*m?%s*$') or '')
        if not height or height <= 0 or height >= 1000 then height = levels * 3 + 0.5 end
        local built_on = osm_day(tags.start_date)
        local demolished_on = osm_day(tags.end_date)
        if built_on and demolished_on and demolished_on <= built_on then
            built_on = nil
            demolished_on = nil
        end
        tables.buildings:insert({
            kind = building == 'yes' and 'building' or building,
            levels = levels,
            height_m = height,
            roof = tags['roof:shape'] == 'flat' and 'flat' or 'pitched',
            built_on = built_on,
            demolished_on = demolished_on,
            geom = object:as_polygon(),
        })
    end
end
