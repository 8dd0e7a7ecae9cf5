import { Link as RouterLink } from '@portal/web-kit';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import CardMedia from '@mui/material/CardMedia';
import Typography from '@mui/material/Typography';
import type { Service } from '@portal/contracts';

/** Paths of this portal open in the app; other addresses are ordinary links. */
const isPortalPath = (url: string) => url.startsWith('/') && !url.startsWith('//');

/** One service on the home page: image, name, description, and a link to the service. */
export function ServiceTile({ service }: { service: Service }) {
  const link = isPortalPath(service.url)
    ? ({ component: RouterLink, to: service.url } as const)
    : ({ component: 'a', href: service.url } as const);
  return (
    <Card sx={{ height: '100%' }}>
      <CardActionArea
        {...link}
        sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
      >
        <CardMedia
          component="img"
          image={service.image}
          alt=""
          sx={{ height: 140, objectFit: 'cover', bgcolor: 'grey.100' }}
        />
        <CardContent sx={{ flexGrow: 1 }}>
          <Typography variant="h3" component="h2" gutterBottom>
            {service.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {service.description}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
